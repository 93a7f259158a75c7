/// An option several commands declare with one meaning: its name, value
/// placeholder and help, written once (see ``Option/init(_:help:)``).
///
///     extension OptionDeclaration {
///       static let store = OptionDeclaration(name: "store", valueName: "dir", help: "The store directory.")
///     }
///
///     @Option(.store) var storePath: String
public struct OptionDeclaration: Sendable {
  /// The long name, written `--name`.
  public let name: String
  /// A one-letter alias, written `-c`.
  public let short: Character?
  /// The help placeholder.
  public let valueName: String
  /// The help most commands show.
  public let help: String

  /// Declares a shared option.
  public init(name: String, short: Character? = nil, valueName: String, help: String) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
  }

  func text(help override: String?) -> _OptionText {
    _OptionText(name: name, short: short, valueName: valueName, completion: nil, help: override ?? help)
  }
}

/// A flag several commands declare with one meaning (see ``Flag/init(_:help:)``).
public struct FlagDeclaration: Sendable {
  /// The long name, written `--name`.
  public let name: String
  /// A one-letter alias, written `-c`.
  public let short: Character?
  /// The help most commands show.
  public let help: String

  /// Declares a shared flag.
  public init(name: String, short: Character? = nil, help: String) {
    self.name = name
    self.short = short
    self.help = help
  }
}

extension FlagDeclaration {
  /// `--json`: print the result as JSON on standard output. A command that
  /// has it and fails before printing its own document answers with the
  /// error as JSON (``CommandLineError/jsonEnvelope``).
  public static let json = FlagDeclaration(name: "json", help: "Print the result as one JSON object.")
  /// `--verbose`, `-v`: say more.
  public static let verbose = FlagDeclaration(name: "verbose", short: "v", help: "Print more about what was done.")
}
