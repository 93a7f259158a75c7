/// Finds mistakes in command declarations (programming errors, not user errors).
enum _DeclarationChecker {
  /// Describes every problem with `configuration`, or returns an empty array.
  ///
  /// - Parameters:
  ///   - configuration: The command to check.
  ///   - arguments: Its declared arguments (``_Declarations``).
  ///   - isRoot: Whether it is the root command (which owns `--version` and `help`).
  ///   - isRunnable: Whether the command type adopts ``RunnableCommand``.
  static func problems(
    in configuration: CommandConfiguration, arguments: [ArgumentSpec], isRoot: Bool, isRunnable: Bool
  ) -> [String] {
    var problems: [String] = []
    var names: Set<String> = []
    var shorts: Set<Character> = []
    var reservedLong: Set<String> = ["help"]
    if isRoot, configuration.version != nil { reservedLong.insert("version") }
    if isRoot {
      reservedLong.insert(String(CommandLineTool.completionScriptOption.dropFirst(2)))
      reservedLong.insert(String(CommandLineTool.manualOption.dropFirst(2)))
    }

    if !isValidName(configuration.name) {
      problems.append("invalid command name '\(configuration.name)'")
    }
    for spec in arguments {
      if !isValidName(spec.name) { problems.append("invalid argument name '\(spec.name)'") }
      if !names.insert(spec.name).inserted { problems.append("argument '\(spec.name)' is declared twice") }
      if !spec.isPositional, reservedLong.contains(spec.name) {
        problems.append("option '--\(spec.name)' is reserved")
      }
      if let short = spec.short {
        if spec.isPositional { problems.append("positional argument '\(spec.name)' cannot have a short name") }
        if short == "h" { problems.append("short name '-h' is reserved for help") }
        if !(short.isASCII && (short.isLetter || short.isNumber)) {
          problems.append("short name '\(short)' of '\(spec.name)' must be an ascii letter or digit")
        }
        if !shorts.insert(short).inserted { problems.append("short name '-\(short)' is declared twice") }
      }
    }
    problems += positionalProblems(arguments)

    var subcommandNames: Set<String> = []
    for subcommand in configuration.subcommands {
      let name = subcommand.configuration.name
      if !isValidName(name) { problems.append("invalid subcommand name '\(name)'") }
      if isRoot, name == "help" { problems.append("subcommand name 'help' is reserved") }
      if !subcommandNames.insert(name).inserted { problems.append("subcommand '\(name)' is declared twice") }
    }
    if !isRunnable, configuration.subcommands.isEmpty {
      problems.append("a command that is not runnable must have subcommands")
    }
    return problems
  }

  private static func positionalProblems(_ specs: [ArgumentSpec]) -> [String] {
    var problems: [String] = []
    var sawOptional = false
    var sawVariadic = false
    for spec in specs {
      guard case .positional(let arity) = spec.kind else { continue }
      if sawVariadic {
        problems.append("positional argument '\(spec.name)' follows a variadic argument")
      }
      switch arity {
      case .required:
        if sawOptional { problems.append("required argument '\(spec.name)' follows an optional one") }
      case .optional:
        sawOptional = true
      case .zeroOrMore, .oneOrMore:
        if arity == .oneOrMore, sawOptional {
          problems.append("required argument '\(spec.name)' follows an optional one")
        }
        sawVariadic = true
      }
    }
    return problems
  }

  private static func isValidName(_ name: String) -> Bool {
    guard let first = name.first, first != "-" else { return false }
    return name.allSatisfy { !$0.isWhitespace && $0 != "=" }
  }
}
