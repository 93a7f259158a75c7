/// Renders help and usage text in the layout of swift-argument-parser.
enum _HelpGenerator {
  /// The width help text is wrapped to.
  static let screenWidth = 80
  /// The column where descriptions start in `ARGUMENTS:`, `OPTIONS:` and `SUBCOMMANDS:`.
  static let labelColumnWidth = 26
  /// The indentation of rows inside a section.
  static let sectionIndent = 2

  /// The command names from the root to the last element, e.g. `calldir device load`.
  static func commandName(_ path: [any Command.Type]) -> String {
    path.map { $0.configuration.name }.joined(separator: " ")
  }

  /// The usage line without a `USAGE:` prefix, e.g. `calldir load [--json] <file> ...`.
  static func usage(_ path: [any Command.Type]) -> String {
    guard let command = path.last else { return "" }
    let configuration = command.configuration
    var parts = [commandName(path)]
    if command is any RunnableCommand.Type {
      parts += configuration.arguments.map(usageElement)
      if !configuration.subcommands.isEmpty { parts.append("[<subcommand>]") }
    } else {
      parts.append("<subcommand>")
    }
    return parts.joined(separator: " ")
  }

  /// The complete help text, ending with a newline.
  static func help(_ path: [any Command.Type]) -> String {
    guard let command = path.last else { return "" }
    let configuration = command.configuration
    let isRoot = path.count == 1
    var sections: [String] = []

    var overview = wrap("OVERVIEW: " + configuration.abstract, width: screenWidth)
    if let discussion = configuration.discussion, !discussion.isEmpty {
      overview += "\n\n" + wrap(discussion, width: screenWidth)
    }
    sections.append(overview)
    sections.append("USAGE: " + usage(path))

    let positionals = configuration.arguments.filter(\.isPositional)
    if !positionals.isEmpty {
      sections.append("ARGUMENTS:\n" + positionals.map { row($0._displayName, describe($0)) }.joined())
    }

    var options = configuration.arguments.filter { !$0.isPositional }.map { row(optionLabel($0), describe($0)) }
    if isRoot, configuration.version != nil { options.append(row("--version", "Show the version.")) }
    options.append(row("-h, --help", "Show help information."))
    sections.append("OPTIONS:\n" + options.joined())

    if !configuration.subcommands.isEmpty {
      var rows = configuration.subcommands.filter { !$0.configuration.isHidden }
        .map { row($0.configuration.name, $0.configuration.abstract) }
      if isRoot { rows.append(row("help", "Show subcommand help information.")) }
      let helpPath = ([path[0].configuration.name, "help"] + path.dropFirst().map { $0.configuration.name })
        .joined(separator: " ")
      sections.append(
        "SUBCOMMANDS:\n" + rows.joined() + "\n  See '\(helpPath) <subcommand>' for detailed help.\n")
    }

    return sections.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(separator: "\n\n") + "\n"
  }

  private static func usageElement(_ spec: ArgumentSpec) -> String {
    switch spec.kind {
    case .flag:
      return "[--\(spec.name)]"
    case .option(let isRequired, let isRepeatable):
      let core = spec._displayName + (isRepeatable ? " ..." : "")
      return isRequired && spec.defaultValue == nil ? core : "[\(core)]"
    case .positional(let arity):
      let name = spec._displayName
      switch arity {
      case .required: return name
      case .optional: return "[\(name)]"
      case .zeroOrMore: return "[\(name) ...]"
      case .oneOrMore: return "\(name) ..."
      }
    }
  }

  private static func optionLabel(_ spec: ArgumentSpec) -> String {
    guard let short = spec.short else { return spec._displayName }
    return "-\(short), " + spec._displayName
  }

  private static func describe(_ spec: ArgumentSpec) -> String {
    guard let defaultValue = spec.defaultValue else { return spec.help }
    return spec.help + (spec.help.isEmpty ? "" : " ") + "(default: \(defaultValue))"
  }

  /// One section row: label padded to the description column, wrapped description, newline.
  private static func row(_ label: String, _ text: String) -> String {
    let paddedLabel = String(repeating: " ", count: sectionIndent) + label
    let indent = String(repeating: " ", count: labelColumnWidth)
    let lines = wrapLines(text, width: screenWidth - labelColumnWidth)
    var result: String
    var rest = lines[...]
    if paddedLabel.count < labelColumnWidth {
      result = paddedLabel + String(repeating: " ", count: labelColumnWidth - paddedLabel.count)
      result += rest.popFirst() ?? ""
      result += "\n"
    } else {
      result = paddedLabel + "\n"
    }
    for line in rest { result += indent + line + "\n" }
    return result
  }

  /// Wraps each paragraph line of `text` to `width` columns, joined with newlines.
  private static func wrap(_ text: String, width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .flatMap { wrapLines(String($0), width: width) }
      .joined(separator: "\n")
  }

  /// Greedy word wrap of a single line; words longer than `width` stay whole.
  static func wrapLines(_ line: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in line.split(separator: " ") {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    lines.append(current)
    return lines
  }
}
