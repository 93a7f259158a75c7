/// Writes one Markdown reference page per command of a tree.
enum _MarkdownGenerator {
  static func pages(_ root: any Command.Type) -> [(fileName: String, text: String)] {
    _CommandTree.paths(root).map { (fileName(of: $0), page($0)) }
  }

  /// `calldir.md`, `calldir-device-load.md`.
  static func fileName(of path: [any Command.Type]) -> String {
    path.map { $0.configuration.name }.joined(separator: "-") + ".md"
  }

  private static func page(_ path: [any Command.Type]) -> String {
    guard let command = path.last, let root = path.first else { return "" }
    let configuration = command.configuration
    let tool = root.configuration.name
    var text = "# `\(_HelpGenerator.commandName(path))`\n\n"
    text += "<!-- Generated from the command's definition by `\(tool) _docs` (`make docs`); do not edit. -->\n\n"
    if path.count > 1 {
      let parents = (1..<path.count).map { end in
        "[`\(_HelpGenerator.commandName(Array(path[..<end])))`](\(fileName(of: Array(path[..<end]))))"
      }
      text += "Part of " + parents.joined(separator: " › ") + ".\n\n"
    }
    text += prose(configuration.abstract) + "\n\n"
    for paragraph in _HelpGenerator.paragraphs(configuration.discussion) {
      var inVerbatim = false
      for line in paragraph {
        if line.isVerbatim != inVerbatim {
          text += line.isVerbatim ? "```\n" : "```\n"
          inVerbatim = line.isVerbatim
        }
        text += (line.isVerbatim ? String(line.text.dropFirst(2)) : prose(line.text)) + "\n"
      }
      if inVerbatim { text += "```\n" }
      text += "\n"
    }
    text += "## Usage\n\n```\n\(_HelpGenerator.usage(path))\n```\n\n"

    let positionals = _Declarations.specs(of: command).filter(\.isPositional)
    if !positionals.isEmpty {
      text += "## Arguments\n\n"
      text += positionals.map { "- `\($0._displayName)`: \(prose(_HelpGenerator.describe($0)))\n" }.joined() + "\n"
    }
    let options = _CommandTree.options(path)
    text += "## Options\n\n"
    text += options.map { "- `\(_HelpGenerator.optionLabel($0))`: \(prose(_HelpGenerator.describe($0)))\n" }.joined()
    text += "\n"
    if !configuration.exitStatuses.isEmpty {
      text += "## Exit status\n\n"
      text += configuration.exitStatuses.map { "- `\($0.code.rawValue)`: \(prose($0.meaning))\n" }.joined() + "\n"
    }
    if !configuration.examples.isEmpty {
      text += "## Examples\n\n"
      text += configuration.examples.map { "\(prose($0.purpose))\n\n```sh\n\($0.commandLine)\n```\n\n" }.joined()
    }
    let subcommands = _HelpGenerator.visibleSubcommands(configuration)
    if !subcommands.isEmpty {
      text += "## Subcommands\n\n"
      text += subcommands.map { subcommand in
        let subpath = path + [subcommand]
        return "- [`\(_HelpGenerator.commandName(subpath))`](\(fileName(of: subpath))): "
          + prose(subcommand.configuration.abstract) + "\n"
      }.joined() + "\n"
    }
    if !configuration.seeAlso.isEmpty {
      text += "## See also\n\n"
      text += configuration.seeAlso.map { "- [\(prose($0.title))](../../\($0.path))\n" }.joined() + "\n"
    }
    return String(text.dropLast())
  }

  /// Prose with the characters Markdown would read as markup escaped
  /// (`<`, `*`, `_` at a word's edge, `|`), code spans (`` `…` ``) kept.
  static func prose(_ text: String) -> String {
    var result = ""
    var inCode = false
    var previous: Character = " "
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
      if character == "`" { inCode.toggle() }
      if !inCode {
        let next = index + 1 < characters.count ? characters[index + 1] : " "
        switch character {
        case "<", "*", "|", "[", "]": result += "\\"
        case "_" where previous == " " || next == " " || next == "." || next == ",": result += "\\"
        default: break
        }
      }
      result.append(character)
      previous = character
    }
    return result
  }
}
