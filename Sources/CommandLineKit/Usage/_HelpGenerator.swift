/// Renders help and usage text in the layout of swift-argument-parser.
enum _HelpGenerator {
  /// The width help text is wrapped to when the output is not a terminal.
  static let screenWidth = 80
  /// The narrowest and widest a terminal's help is wrapped to.
  static let widthRange = 40...120
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
    usageElements(path).joined(separator: " ")
  }

  /// The words of the usage line: the command's name, then one element per
  /// argument (`[--json]`, `--store <dir>`, `<file> ...`).
  static func usageElements(_ path: [any Command.Type]) -> [String] {
    guard let command = path.last else { return [] }
    let configuration = command.configuration
    var parts = [commandName(path)]
    if command is any RunnableCommand.Type {
      parts += _Declarations.specs(of: command).map(usageElement)
      if !configuration.subcommands.isEmpty { parts.append("[<subcommand>]") }
    } else {
      parts.append("<subcommand>")
    }
    return parts
  }

  /// The usage line broken between elements (never inside one) into lines
  /// of at most `width` columns after `prefix`; later lines are indented
  /// to stand under the first element.
  static func usageLines(_ path: [any Command.Type], prefix: String, width: Int) -> [String] {
    let indent = String(repeating: " ", count: prefix.count)
    var lines: [String] = []
    var current = prefix
    for element in usageElements(path) {
      if current == prefix || current == indent {
        current += element
      } else if current.count + 1 + element.count <= width {
        current += " " + element
      } else {
        lines.append(current)
        current = indent + element
      }
    }
    lines.append(current)
    return lines
  }

  /// A command line broken between words outside quotes into lines of at
  /// most `width` columns, each but the last ending in ` \` (a shell line
  /// continuation), later lines indented by `continuationIndent`.
  static func commandLines(_ commandLine: String, width: Int, continuationIndent: Int) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    for character in commandLine {
      if let open = quote {
        if character == open { quote = nil }
        word.append(character)
      } else if character == "\"" || character == "'" {
        quote = character
        word.append(character)
      } else if character == " " {
        if !word.isEmpty { words.append(word) }
        word = ""
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { words.append(word) }
    let indent = String(repeating: " ", count: continuationIndent)
    var lines: [String] = []
    var current = ""
    for word in words {
      if current.isEmpty || current == indent {
        current += word
      } else if current.count + 1 + word.count + 2 <= width {
        current += " " + word
      } else {
        lines.append(current + " \\")
        current = indent + word
      }
    }
    lines.append(current)
    return lines
  }

  /// The width to wrap help to: a terminal's columns (within
  /// ``widthRange``), or ``screenWidth``.
  static func width(for sink: any OutputSink) -> Int {
    guard sink.isTerminal, let columns = sink.columns else { return screenWidth }
    return min(max(columns, widthRange.lowerBound), widthRange.upperBound)
  }

  /// The complete help text, ending with a newline, wrapped to `width` columns.
  static func help(_ path: [any Command.Type], width: Int = screenWidth) -> String {
    guard let command = path.last else { return "" }
    let configuration = command.configuration
    let isRoot = path.count == 1
    let descriptionWidth = max(width - labelColumnWidth, 20)
    var sections: [String] = []

    var overview = wrap("OVERVIEW: " + configuration.abstract, width: width)
    for paragraph in paragraphs(configuration.discussion) {
      overview += "\n\n" + paragraph.map { $0.isVerbatim ? $0.text : wrap($0.text, width: width) }.joined(separator: "\n")
    }
    sections.append(overview)
    sections.append(usageLines(path, prefix: "USAGE: ", width: width).joined(separator: "\n"))

    let arguments = _Declarations.specs(of: command)
    let positionals = arguments.filter(\.isPositional)
    if !positionals.isEmpty {
      sections.append(
        "ARGUMENTS:\n" + positionals.map { row($0._displayName, describe($0), descriptionWidth) }.joined())
    }

    var options = arguments.filter { !$0.isPositional }
      .map { row(optionLabel($0), describe($0), descriptionWidth) }
    if isRoot {
      options += rootOptions(configuration).map { row($0.label, $0.help, descriptionWidth) }
    }
    options.append(row("-h, --help", "Show help information.", descriptionWidth))
    sections.append("OPTIONS:\n" + options.joined())

    if !configuration.exitStatuses.isEmpty {
      sections.append(
        "EXIT STATUS:\n"
          + configuration.exitStatuses.map { row(String($0.code.rawValue), $0.meaning, descriptionWidth) }.joined())
    }

    if !configuration.examples.isEmpty {
      let examples = configuration.examples.map { example in
        wrapLines(example.purpose, width: width - sectionIndent).map { "  " + $0 + "\n" }.joined()
          + commandLines(example.commandLine, width: width - 4, continuationIndent: 2).map { "    " + $0 + "\n" }
          .joined()
      }
      sections.append("EXAMPLES:\n" + examples.joined(separator: "\n"))
    }

    if !configuration.subcommands.isEmpty {
      var rows = visibleSubcommands(configuration)
        .map { row($0.configuration.name, $0.configuration.abstract, descriptionWidth) }
      if isRoot { rows.append(row("help", "Show subcommand help information.", descriptionWidth)) }
      let helpPath = ([path[0].configuration.name, "help"] + path.dropFirst().map { $0.configuration.name })
        .joined(separator: " ")
      sections.append(
        "SUBCOMMANDS:\n" + rows.joined() + "\n  See '\(helpPath) <subcommand>' for detailed help.\n")
    }

    return sections.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(separator: "\n\n") + "\n"
  }

  /// The subcommands help, completions and the manual list.
  static func visibleSubcommands(_ configuration: CommandConfiguration) -> [any Command.Type] {
    configuration.subcommands.filter { !$0.configuration.isHidden }
  }

  /// The options only the root answers: `--version` (when it has one) and
  /// the generators of completion scripts and the manual.
  static func rootOptions(_ configuration: CommandConfiguration) -> [(label: String, help: String)] {
    var options: [(label: String, help: String)] = []
    if configuration.version != nil { options.append(("--version", "Show the version.")) }
    options.append(
      ("\(CommandLineTool.completionScriptOption) <shell>",
       "Print the completion script for a shell: bash, zsh or fish."))
    options.append(("\(CommandLineTool.manualOption)", "Print the manual page (roff, for man(1))."))
    return options
  }

  /// One line of a discussion paragraph: wrapped text, or a verbatim line
  /// (one that starts with two spaces).
  struct Line {
    var text: String
    var isVerbatim: Bool
  }

  /// The paragraphs of a discussion (split at blank lines), each a list of
  /// lines; consecutive prose lines are joined into one.
  static func paragraphs(_ discussion: String?) -> [[Line]] {
    guard let discussion, !discussion.isEmpty else { return [] }
    var result: [[Line]] = []
    var current: [Line] = []
    for rawLine in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(rawLine)
      if line.allSatisfy({ $0 == " " }) {
        if !current.isEmpty { result.append(current) }
        current = []
      } else if line.hasPrefix("  ") {
        current.append(Line(text: line, isVerbatim: true))
      } else if let last = current.last, !last.isVerbatim {
        current[current.count - 1].text += " " + line
      } else {
        current.append(Line(text: line, isVerbatim: false))
      }
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  static func usageElement(_ spec: ArgumentSpec) -> String {
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

  static func optionLabel(_ spec: ArgumentSpec) -> String {
    guard let short = spec.short else { return spec._displayName }
    return "-\(short), " + spec._displayName
  }

  /// The help of an argument with what it accepts and its default:
  /// `Help. (values: a, b; default: a)`.
  static func describe(_ spec: ArgumentSpec) -> String {
    var notes: [String] = []
    if !spec.allowedValues.isEmpty { notes.append("values: " + spec.allowedValues.joined(separator: ", ")) }
    if let defaultValue = spec.defaultValue { notes.append("default: \(defaultValue)") }
    guard !notes.isEmpty else { return spec.help }
    return spec.help + (spec.help.isEmpty ? "" : " ") + "(" + notes.joined(separator: "; ") + ")"
  }

  /// One section row: label padded to the description column, wrapped description, newline.
  private static func row(_ label: String, _ text: String, _ descriptionWidth: Int) -> String {
    let paddedLabel = String(repeating: " ", count: sectionIndent) + label
    let indent = String(repeating: " ", count: labelColumnWidth)
    let lines = wrapLines(text, width: descriptionWidth)
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
  static func wrap(_ text: String, width: Int) -> String {
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
