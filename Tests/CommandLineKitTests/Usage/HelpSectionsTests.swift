import CommandLineKit
import Testing

/// A tree whose commands declare exit statuses, examples, paragraphs, path
/// options and links: what help, the manual, reference pages and
/// completions are generated from.
private enum Documented: Command {
  static let configuration = CommandConfiguration(
    name: "tool",
    abstract: "A documented tool.",
    discussion: "First paragraph.\n\nSecond paragraph, with a command:\n  tool publish --store s",
    version: "tool 1.0",
    subcommands: [Publish.self, Group.self, Hidden.self],
    exitStatuses: [.init(.success, "Fine."), .init(.usage, "Wrong.")])

  struct Publish: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "publish",
      abstract: "Publish a store.",
      discussion: """
        Reads the config and writes the store. This paragraph is long enough to be wrapped at any \
        width the tests choose, which is the point of it.

        A second paragraph.
        """,
      exitStatuses: [
        .init(.success, "Published."),
        .init(.dataError, "A guard refused the build; nothing is published."),
        .init(.tempFail, "Another build holds the store."),
      ],
      examples: [
        .init("Publish into a store.", "tool publish --store out/store"),
        .init(
          "A long one that wraps.",
          "tool publish --store /a/very/long/path/to/a/store --config \"a config with spaces.json\" --json --verbose"),
      ],
      seeAlso: [.init("Publishing", "guides/publishing.md")])

    @Argument(valueName: "file", help: "Blobs.")
    var blob: [String]
    @Option(valueName: "dir", help: "The store.")
    var store: String
    @Option(valueName: "file", help: "The config [JSON].")
    var config: String?
    @Option(valueName: "name", completion: .values(["bash", "zsh"]), help: "A shell.")
    var shell: String?
    @Option(valueName: "size", help: "A size.")
    var limit: ByteSize?
    @Flag(.json, help: "Print JSON.")
    var json: Bool
    @Flag(.verbose, help: "Say more.")
    var verbose: Bool
    func run(context: CommandContext) throws {}
  }

  enum Group: Command {
    static let configuration = CommandConfiguration(
      name: "group", abstract: "A group.", subcommands: [Leaf.self])
  }

  struct Leaf: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "leaf", abstract: "A leaf.")
    @Option(valueName: "dir", help: "A device.")
    var device: String?
    func run(context: CommandContext) throws {}
  }

  struct Hidden: RunnableCommand {
    static let configuration = CommandConfiguration(name: "_hidden", abstract: "Hidden.", isHidden: true)
    func run(context: CommandContext) throws {}
  }
}

private func help(_ arguments: [String], columns: Int? = nil) -> String {
  let output = MemorySink(isTerminal: columns != nil, columns: columns)
  let code = CommandLineTool.run(root: Documented.self, arguments: arguments, standardOutput: output, standardError: MemorySink())
  #expect(code == .success)
  return output.text
}

@Suite struct HelpSectionsTests {
  @Test func sectionsComeInOrder() {
    let text = help(["help", "publish"])
    #expect(text == """
      OVERVIEW: Publish a store.

      Reads the config and writes the store. This paragraph is long enough to be
      wrapped at any width the tests choose, which is the point of it.

      A second paragraph.

      USAGE: tool publish [<file> ...] --store <dir> [--config <file>]
             [--shell <name>] [--limit <size>] [--json] [--verbose]

      ARGUMENTS:
        <file>                  Blobs.

      OPTIONS:
        --store <dir>           The store.
        --config <file>         The config [JSON].
        --shell <name>          A shell.
        --limit <size>          A size.
        --json                  Print JSON.
        -v, --verbose           Say more.
        -h, --help              Show help information.

      EXIT STATUS:
        0                       Published.
        65                      A guard refused the build; nothing is published.
        75                      Another build holds the store.

      EXAMPLES:
        Publish into a store.
          tool publish --store out/store

        A long one that wraps.
          tool publish --store /a/very/long/path/to/a/store --config \\
            "a config with spaces.json" --json --verbose

      """)
    #expect(help(["publish", "--help"]) == text)
  }

  @Test func verbatimLinesOfADiscussionAreKept() {
    #expect(help(["--help"]).contains("Second paragraph, with a command:\n  tool publish --store s\n"))
  }

  @Test func aTerminalWrapsToItsWidth() {
    let narrow = help(["help", "publish"], columns: 50)
    for line in narrow.split(separator: "\n") { #expect(line.count <= 50, "\(line)") }
    #expect(narrow.contains("Reads the config and writes the store. This\nparagraph"))
    let wide = help(["help", "publish"], columns: 200)
    // Wide terminals are held to 120 columns.
    #expect(wide.split(separator: "\n").contains { $0.count > 80 })
    for line in wide.split(separator: "\n") { #expect(line.count <= 120, "\(line)") }
    // Not a terminal: 80 columns.
    #expect(help(["help", "publish"]) == help(["help", "publish"], columns: 80))
  }

  @Test func generatorOptionsAnswerOnTheRootOnly() {
    for shell in ["bash", "zsh", "fish"] {
      let text = help(["--generate-completion-script", shell])
      #expect(text.contains("publish"))
      #expect(!text.contains("_hidden"))
      #expect(help(["--generate-completion-script=\(shell)"]) == text)
    }
    let output = MemorySink()
    let error = MemorySink()
    let code = CommandLineTool.run(
      root: Documented.self, arguments: ["publish", "--generate-manual"], standardOutput: output, standardError: error)
    #expect(code == .usage)
    #expect(error.text.hasPrefix("error: unknown option '--generate-manual'"))
  }

  @Test func bashScriptCompletesByKind() {
    let script = CommandLineTool.completionScript(root: Documented.self, shell: .bash)
    #expect(script.contains("complete -F _tool tool"))
    #expect(script.contains("        \"tool publish\")\n            case \"$prev\" in\n                --store)\n                    _tool_directories \"$cur\"; return 0 ;;\n                --config)\n                    _tool_files \"$cur\"; return 0 ;;\n                --shell)\n                    COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\")); return 0 ;;\n                --limit)\n                    COMPREPLY=(); return 0 ;;\n"))
    #expect(script.contains("positional=\"file\""))
    #expect(script.contains("subcommands=\"publish group help\""))
    #expect(script.contains("\"tool group leaf\")"))
  }

  @Test func zshAndFishScriptsNameEveryOption() {
    let zsh = CommandLineTool.completionScript(root: Documented.self, shell: .zsh)
    #expect(zsh.hasPrefix("#compdef tool\n"))
    #expect(zsh.contains("'--config[The config \\[JSON\\]]:file:_files'"))
    #expect(zsh.contains("'--store[The store]:dir:_files -/'"))
    #expect(zsh.contains("'(-v --verbose)'{-v,--verbose}'[Say more]'"))
    #expect(zsh.contains("'*:file:_files'"))
    let fish = CommandLineTool.completionScript(root: Documented.self, shell: .fish)
    #expect(fish.contains("complete -c tool -n '__tool_is \\'tool publish\\'' -l config -r -F -d 'The config [JSON]'"))
    #expect(fish.contains("-l shell -x -a 'bash zsh'"))
    #expect(fish.contains("-s v -l verbose -d 'Say more'"))
  }

  @Test func manualHoldsEveryCommand() {
    let page = CommandLineTool.manual(root: Documented.self)
    #expect(page.contains(".TH TOOL 1 \"\" \"tool 1.0\" \"User Commands\"\n"))
    #expect(page.contains(".SS \"tool publish\"\n"))
    #expect(page.contains(".SS \"tool group leaf\"\n"))
    #expect(!page.contains("_hidden"))
    #expect(page.contains(".TP\n.B 65\nA guard refused the build; nothing is published.\n"))
    #expect(page.contains(".BI \"\\-\\-store \" dir\n"))
    #expect(page.contains(".nf\ntool publish \\-\\-store s\n.fi\n"))
    #expect(page.contains(".SH \"EXIT STATUS\"\n.TP\n.B 0\nFine.\n"))
    // No line starts with a period or apostrophe that roff would read as a request.
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      #expect(line.first == "." && line.dropFirst().first?.isLetter == true || line.hasPrefix(".\\\""), "\(line)")
    }
  }

  @Test func referencePagesLinkParentsChildrenAndGuides() {
    let pages = CommandLineTool.referencePages(root: Documented.self)
    #expect(pages.map(\.fileName) == ["tool.md", "tool-publish.md", "tool-group.md", "tool-group-leaf.md"])
    let publish = pages[1].text
    #expect(publish.hasPrefix("# `tool publish`\n"))
    #expect(publish.contains("Part of [`tool`](tool.md).\n"))
    #expect(publish.contains("- `--config <file>`: The config \\[JSON\\].\n"))
    #expect(publish.contains("## Exit status\n\n- `0`: Published.\n"))
    #expect(publish.contains("- [Publishing](../../guides/publishing.md)\n"))
    #expect(pages[2].text.contains("- [`tool group leaf`](tool-group-leaf.md): A leaf.\n"))
  }

  @Test func reservedGeneratorNamesAreDeclarationErrors() {
    struct BadRoot: RunnableCommand {
      static let configuration = CommandConfiguration(
        name: "bad", abstract: "Bad.")
      @Flag(help: "Mine.")
      var generateManual: Bool
      func run(context: CommandContext) throws {}
    }
    let error = MemorySink()
    let code = CommandLineTool.run(root: BadRoot.self, arguments: [], standardOutput: MemorySink(), standardError: error)
    #expect(code == .software)
    #expect(error.text.contains("option '--generate-manual' is reserved"))
  }

  @Test func completionKindFollowsTheValueName() {
    #expect(ArgumentSpec.option("a", valueName: "file", help: "").completion == .file)
    #expect(ArgumentSpec.option("a", valueName: "dir", help: "").completion == .directory)
    #expect(ArgumentSpec.option("a", valueName: "dir-or-url", help: "").completion == .directory)
    #expect(ArgumentSpec.option("a", valueName: "n", help: "").completion == .none)
    #expect(ArgumentSpec.option("a", valueName: "n", completion: .file, help: "").completion == .file)
    #expect(ArgumentSpec.flag("a", help: "").completion == .none)
  }
}
