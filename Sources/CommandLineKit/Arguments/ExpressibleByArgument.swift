/// A type whose values can be read from one command-line word.
///
/// ``Option`` and ``Argument`` convert each value with ``init(argument:)``;
/// a word it refuses is a usage error that says what was expected
/// (``expectedArgument``). Enumerations with `String` raw values get every
/// requirement for free and list their values in help and completions:
///
///     enum Shell: String, CaseIterable, ExpressibleByArgument {
///       case bash, zsh, fish
///     }
public protocol ExpressibleByArgument: Sendable {
  /// The value `argument` spells, or `nil` when it spells none.
  init?(argument: String)
  /// The value as it is written on the command line; help shows defaults this way.
  var argumentDescription: String { get }
  /// What a value must look like, for the error message: `an integer`.
  static var expectedArgument: String { get }
  /// Every value there is, for help and completions; empty when any word may do.
  static var allValueStrings: [String] { get }
}

extension ExpressibleByArgument {
  /// The value as `String(describing:)` writes it.
  public var argumentDescription: String { String(describing: self) }
  /// `one of a, b, c` when the values are listed, else `a value`.
  public static var expectedArgument: String {
    allValueStrings.isEmpty ? "a value" : "one of " + allValueStrings.joined(separator: ", ")
  }
  /// No list: any word may do.
  public static var allValueStrings: [String] { [] }
}

extension ExpressibleByArgument where Self: RawRepresentable & CaseIterable, RawValue == String {
  /// The case whose raw value is `argument`.
  public init?(argument: String) { self.init(rawValue: argument) }
  /// The raw value.
  public var argumentDescription: String { rawValue }
  /// Every case's raw value, in declaration order.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ExpressibleByArgument {
  /// The word itself.
  public init?(argument: String) { self = argument }
  /// `a value`.
  public static var expectedArgument: String { "a value" }
}

extension Int: ExpressibleByArgument {
  /// A decimal integer, such as `-3` or `20`.
  public init?(argument: String) { self.init(argument, radix: 10) }
  /// `an integer`, as the accessors said before typed options.
  public static var expectedArgument: String { "an integer" }
}

extension UInt64: ExpressibleByArgument {
  /// A non-negative decimal integer.
  public init?(argument: String) { self.init(argument, radix: 10) }
  /// `a non-negative integer`.
  public static var expectedArgument: String { "a non-negative integer" }
}

extension ByteSize: ExpressibleByArgument {
  /// A size such as `512M`, `2G` or `100k` (``ByteSize/parse(_:)``).
  public init?(argument: String) {
    guard let bytes = ByteSize.parse(argument) else { return nil }
    self.init(bytes: bytes, text: argument)
  }
  /// The size as it was written (`16M`).
  public var argumentDescription: String { text }
  /// `a size such as 512M, 2G or 100k`.
  public static var expectedArgument: String { "a size such as 512M, 2G or 100k" }
}
