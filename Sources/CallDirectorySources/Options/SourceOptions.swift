/// A source entry's format-specific keys (`number`, `delimiter`, `where`, …)
/// and their values.
///
/// Most options are strings and read as strings (`options["number"]`);
/// object-valued ones such as `where` and `regions` keep their shape as a
/// ``SourceOptionValue``:
///
///     let options: SourceOptions = [
///       "number": "phone", "where": .object(["kind": .strings(["spam"])]),
///     ]
///     options["number"]          // "phone"
///     options[value: "where"]    // .object(…)
public struct SourceOptions: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// Every option, by key.
  public private(set) var values: [String: SourceOptionValue]

  /// Creates options from values by key.
  public init(_ values: [String: SourceOptionValue] = [:]) {
    self.values = values
  }

  /// Creates options from a literal.
  public init(dictionaryLiteral elements: (String, SourceOptionValue)...) {
    self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
  }

  /// The string value of `key`; nil when it is unset or not a string.
  /// Setting it stores a string (nil removes the key).
  public subscript(key: String) -> String? {
    get { values[key]?.string }
    set { values[key] = newValue.map(SourceOptionValue.string) }
  }

  /// The value of `key`, whatever its shape.
  public subscript(value key: String) -> SourceOptionValue? {
    get { values[key] }
    set { values[key] = newValue }
  }

  /// Whether no option is set.
  public var isEmpty: Bool { values.isEmpty }

  /// The keys set, sorted.
  public var keys: [String] { values.keys.sorted() }
}

/// The value of one source option, as the config writes it.
public indirect enum SourceOptionValue: Sendable, Hashable, ExpressibleByStringLiteral {
  /// A string (`"number": "phone"`).
  case string(String)
  /// An array of strings (the values of one `where` column).
  case strings([String])
  /// An object (`where`, `regions`).
  case object([String: SourceOptionValue])

  /// Creates a string value.
  public init(stringLiteral value: String) {
    self = .string(value)
  }

  /// The string, for a ``string(_:)``.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The array, for a ``strings(_:)``.
  public var strings: [String]? {
    if case .strings(let list) = self { return list }
    return nil
  }

  /// The object of string arrays (`where`), for an ``object(_:)`` of
  /// ``strings(_:)``.
  public var stringArraysByKey: [String: [String]]? {
    guard case .object(let members) = self else { return nil }
    var result: [String: [String]] = [:]
    for (key, value) in members {
      guard case .strings(let list) = value else { return nil }
      result[key] = list
    }
    return result
  }

  /// The object of strings (`rewritePrefixes`), for an ``object(_:)`` of
  /// ``string(_:)``.
  public var textByKey: [String: String]? { stringsByKey }

  /// The object of strings (`regions`), for an ``object(_:)`` of
  /// ``string(_:)``.
  public var stringsByKey: [String: String]? {
    guard case .object(let members) = self else { return nil }
    var result: [String: String] = [:]
    for (key, value) in members {
      guard let text = value.string else { return nil }
      result[key] = text
    }
    return result
  }
}
