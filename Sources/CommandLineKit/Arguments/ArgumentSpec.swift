/// The description of one positional argument, option or flag of a command,
/// as the parser, help, the manual and completions see it.
///
/// Commands do not write specs: their ``Argument``, ``Option`` and ``Flag``
/// properties make them (``ParsableArguments``). The static factories
/// remain for describing arguments directly.
///
/// For options and flags `name` is the long spelling (`--name`).
public struct ArgumentSpec: Sendable, Hashable {
  /// How many values a positional argument takes.
  public enum Arity: Sendable, Hashable {
    /// Exactly one value must be given.
    case required
    /// Zero or one value.
    case optional
    /// Zero or more values; must be the last positional argument.
    case zeroOrMore
    /// One or more values; must be the last positional argument.
    case oneOrMore
  }

  /// What kind of argument this is.
  public enum Kind: Sendable, Hashable {
    /// A positional argument.
    case positional(Arity)
    /// An option that takes a value, `--name value` or `--name=value`.
    case option(isRequired: Bool, isRepeatable: Bool)
    /// A boolean flag, `--name`.
    case flag
  }

  /// The argument's name: for options and flags, the long spelling without dashes.
  public var name: String
  /// What kind of argument this is.
  public var kind: Kind
  /// A single-character alias, used as `-c`; only for options and flags.
  public var short: Character?
  /// The placeholder shown in help, without angle brackets (`cc` → `<cc>`).
  public var valueName: String
  /// The default value, shown in help as `(default: …)`.
  public var defaultValue: String?
  /// A one-line, sentence-case description ending with a period.
  public var help: String
  /// What a shell completes for the value (see ``Completion``).
  public var completion: Completion
  /// Every value the argument accepts (an enumeration's), listed in help;
  /// empty when any value may do.
  public var allowedValues: [String] = []

  /// Declares a positional argument.
  ///
  /// - Parameters:
  ///   - name: The argument's name.
  ///   - valueName: The help placeholder; defaults to `name`.
  ///   - arity: How many values it takes.
  ///   - defaultValue: The value used when an optional argument is absent.
  ///   - completion: What shells complete for the value; by default
  ///     derived from `valueName` (``Completion/init(valueName:)``).
  ///   - help: A one-line description.
  public static func positional(
    _ name: String,
    valueName: String? = nil,
    arity: Arity = .required,
    defaultValue: String? = nil,
    completion: Completion? = nil,
    help: String
  ) -> ArgumentSpec {
    let valueName = valueName ?? name
    return ArgumentSpec(
      name: name, kind: .positional(arity), short: nil,
      valueName: valueName, defaultValue: defaultValue, help: help,
      completion: completion ?? Completion(valueName: valueName))
  }

  /// Declares an option that takes a value.
  ///
  /// - Parameters:
  ///   - name: The long name, written `--name`.
  ///   - short: An optional one-letter alias, written `-c`.
  ///   - valueName: The help placeholder; defaults to `name`.
  ///   - defaultValue: The value used when the option is absent.
  ///   - isRequired: Whether leaving out the option is a usage error.
  ///   - isRepeatable: Whether the option may be given several times.
  ///   - completion: What shells complete for the value; by default
  ///     derived from `valueName` (``Completion/init(valueName:)``).
  ///   - help: A one-line description.
  public static func option(
    _ name: String,
    short: Character? = nil,
    valueName: String? = nil,
    defaultValue: String? = nil,
    isRequired: Bool = false,
    isRepeatable: Bool = false,
    completion: Completion? = nil,
    help: String
  ) -> ArgumentSpec {
    let valueName = valueName ?? name
    return ArgumentSpec(
      name: name, kind: .option(isRequired: isRequired, isRepeatable: isRepeatable),
      short: short, valueName: valueName, defaultValue: defaultValue, help: help,
      completion: completion ?? Completion(valueName: valueName))
  }

  /// Declares a boolean flag.
  ///
  /// - Parameters:
  ///   - name: The long name, written `--name`.
  ///   - short: An optional one-letter alias, written `-c`.
  ///   - help: A one-line description.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
    ArgumentSpec(
      name: name, kind: .flag, short: short, valueName: name, defaultValue: nil, help: help, completion: .none)
  }

  /// Whether this spec is a positional argument.
  public var isPositional: Bool {
    if case .positional = kind { return true }
    return false
  }
}

extension ArgumentSpec {
  /// `--name`.
  var _longSpelling: String { "--" + name }

  /// `--name` for options and flags, `<value>` for positionals.
  var _displayName: String {
    switch kind {
    case .positional: return "<\(valueName)>"
    case .option: return "--\(name) <\(valueName)>"
    case .flag: return "--\(name)"
    }
  }

  var _isRepeatable: Bool {
    switch kind {
    case .option(_, let isRepeatable): return isRepeatable
    case .positional(let arity): return arity == .zeroOrMore || arity == .oneOrMore
    case .flag: return false
    }
  }
}

extension ArgumentSpec {
  /// What a shell's completion offers for an argument's value.
  public enum Completion: Sendable, Hashable {
    /// Nothing in particular (a number, a size, a date).
    case none
    /// File paths.
    case file
    /// Directory paths.
    case directory
    /// One of these words.
    case values([String])

    /// The completion a value placeholder implies: `file`, `path` and
    /// `prefix` complete files, `dir` and `dir-or-url` directories,
    /// anything else nothing.
    public init(valueName: String) {
      switch valueName.lowercased() {
      case "file", "path", "prefix", "files", "paths": self = .file
      case "dir", "directory", "dir-or-url", "dirs": self = .directory
      default: self = .none
      }
    }
  }
}
