/// How the property wrappers turn the words given for an argument into
/// its typed value.
enum _Conversion {
  /// Reads one value: converts the last word given (for an option given
  /// twice, the later wins), or `nil` when none was given.
  typealias Reader<Value> = @Sendable (ParsedArguments, ArgumentSpec) throws(UsageError) -> Value?
  /// Converts one word.
  typealias Converter<Value> = @Sendable (String, ArgumentSpec) throws(UsageError) -> Value

  /// The converter of an ``ExpressibleByArgument`` type: a word it refuses
  /// is ``UsageError/invalidValue(_:argument:expected:)``.
  static func converter<T: ExpressibleByArgument>(_: T.Type) -> Converter<T> {
    { (raw, spec) throws(UsageError) in
      guard let value = T(argument: raw) else {
        throw .invalidValue(raw, argument: spec._displayName, expected: T.expectedArgument)
      }
      return value
    }
  }

  /// The converter of a `transform` closure: it throws ``UsageError`` for
  /// a word it refuses; any other error it throws is reported as the value
  /// being invalid.
  static func converter<T>(_ transform: @escaping @Sendable (String) throws -> T) -> Converter<T> {
    { (raw, spec) throws(UsageError) in
      do {
        return try transform(raw)
      } catch let error as UsageError {
        throw error
      } catch {
        throw .invalidValue(raw, argument: spec._displayName, expected: String(describing: error))
      }
    }
  }

  /// A converter that also checks the value is in `range`.
  static func checked<T: ExpressibleByArgument>(_ convert: @escaping Converter<T>, _ range: _ValueRange<T>) -> Converter<T> {
    { (raw, spec) throws(UsageError) in
      let value = try convert(raw, spec)
      try range.check(value, raw: raw, spec: spec)
      return value
    }
  }

  /// The last word given, converted; `nil` when none, or a usage error
  /// when `isRequired`.
  static func last<T>(_ convert: @escaping Converter<T>, isRequired: Bool) -> Reader<T> {
    { (parsed, spec) throws(UsageError) in
      guard let raw = parsed.given(spec.name).last else {
        if isRequired { throw .missingArgument(spec._displayName) }
        return nil
      }
      return try convert(raw, spec)
    }
  }

  /// The last word given, converted, as an optional: `.some(nil)` never
  /// comes back, absence leaves the property `nil`.
  static func optional<T>(_ convert: @escaping Converter<T>) -> Reader<T?> {
    { (parsed, spec) throws(UsageError) in
      guard let raw = parsed.given(spec.name).last else { return nil }
      return .some(try convert(raw, spec))
    }
  }

  /// Every word given, converted, in command-line order; `nil` when none
  /// (or a usage error when at least one is required).
  static func all<T>(_ convert: @escaping Converter<T>, isRequired: Bool) -> Reader<[T]> {
    { (parsed, spec) throws(UsageError) in
      let words = parsed.given(spec.name)
      if words.isEmpty {
        if isRequired { throw .missingArgument(spec._displayName) }
        return nil
      }
      var values: [T] = []
      for word in words { values.append(try convert(word, spec)) }
      return values
    }
  }
}

/// The values an integer (or other ordered) option accepts.
struct _ValueRange<Bound: ExpressibleByArgument & Comparable>: Sendable {
  private let contains: @Sendable (Bound) -> Bool
  /// `between 1 and 10`, `at least 1`.
  private let text: String
  /// The message of a value out of range; by default an invalid value that
  /// names the range.
  private let message: (@Sendable (Bound) -> String)?

  init(_ range: ClosedRange<Bound>, message: (@Sendable (Bound) -> String)?) {
    contains = { range.contains($0) }
    text = "between \(range.lowerBound.argumentDescription) and \(range.upperBound.argumentDescription)"
    self.message = message
  }

  init(_ range: PartialRangeFrom<Bound>, message: (@Sendable (Bound) -> String)?) {
    contains = { range.contains($0) }
    text = "of at least \(range.lowerBound.argumentDescription)"
    self.message = message
  }

  func check(_ value: Bound, raw: String, spec: ArgumentSpec) throws(UsageError) {
    guard !contains(value) else { return }
    if let message { throw .invalid(message(value)) }
    throw .invalidValue(raw, argument: spec._displayName, expected: "\(Bound.expectedArgument) \(text)")
  }
}
