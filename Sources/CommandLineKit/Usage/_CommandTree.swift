/// Walks a command tree for the generators of completions, the manual and
/// reference pages.
enum _CommandTree {
  /// Every visible command's path from the root, depth first, the root first.
  static func paths(_ root: any Command.Type) -> [[any Command.Type]] {
    var result: [[any Command.Type]] = []
    func visit(_ path: [any Command.Type]) {
      result.append(path)
      guard let last = path.last else { return }
      for child in _HelpGenerator.visibleSubcommands(last.configuration) { visit(path + [child]) }
    }
    visit([root])
    return result
  }

  /// The positional arguments of a command, in order.
  static func positionals(_ path: [any Command.Type]) -> [ArgumentSpec] {
    guard let command = path.last else { return [] }
    return _Declarations.specs(of: command).filter(\.isPositional)
  }

  /// The options and flags of a command as completions and the manual list
  /// them: its own, the root's generators, and `--help`.
  static func options(_ path: [any Command.Type]) -> [ArgumentSpec] {
    guard let command = path.last else { return [] }
    var options = _Declarations.specs(of: command).filter { !$0.isPositional }
    if path.count == 1 {
      if command.configuration.version != nil { options.append(.flag("version", help: "Show the version.")) }
      options.append(
        .option(
          String(CommandLineTool.completionScriptOption.dropFirst(2)), valueName: "shell",
          completion: .values(CommandLineTool.Shell.allCases.map(\.rawValue)),
          help: "Print the completion script for a shell: bash, zsh or fish."))
      options.append(
        .flag(String(CommandLineTool.manualOption.dropFirst(2)), help: "Print the manual page (roff, for man(1))."))
    }
    options.append(.flag("help", short: "h", help: "Show help information."))
    return options
  }

  /// The words that select subcommands at this point, `help` included at the root.
  static func subcommandNames(_ path: [any Command.Type]) -> [String] {
    guard let command = path.last else { return [] }
    var names = _HelpGenerator.visibleSubcommands(command.configuration).map { $0.configuration.name }
    if path.count == 1, !names.isEmpty { names.append("help") }
    return names
  }

  /// The first sentence of a description, for the one-line descriptions
  /// shells show beside a completion.
  static func firstSentence(_ text: String) -> String {
    var result = ""
    var previous: Character = " "
    for character in text {
      if character == " ", previous == "." { break }
      result.append(character)
      previous = character
    }
    return result.hasSuffix(".") ? String(result.dropLast()) : result
  }
}
