import CommandLineKit
import Testing

@Suite struct HelpTests {
  static let rootHelp = """
    OVERVIEW: Compile iOS Call Directory datasets.

    USAGE: calldir <subcommand>

    OPTIONS:
      --version               Show the version.
      --generate-completion-script <shell>
                              Print the completion script for a shell: bash, zsh or
                              fish.
      --generate-manual       Print the manual page (roff, for man(1)).
      -h, --help              Show help information.

    SUBCOMMANDS:
      compile                 Compile phone number lists into a dataset.
      device                  Work with a device's Call Directory store.
      fail                    Fail on purpose.
      help                    Show subcommand help information.

      See 'calldir help <subcommand>' for detailed help.

    """

  static let compileHelp = """
    OVERVIEW: Compile phone number lists into a dataset.

    Reads CSV or text files and writes a sorted, deduplicated dataset.

    USAGE: calldir compile <input> ... --output <path> [--region <cc>]
           [--exclude <file> ...] [--max-errors <n>] [--memory <size>] [--json]
           [--strict]

    ARGUMENTS:
      <input>                 Input files.

    OPTIONS:
      -o, --output <path>     Where to write the dataset.
      --region <cc>           Default region for numbers without a country code.
                              (default: ZZ)
      --exclude <file>        A list of numbers to leave out.
      --max-errors <n>        Stop after this many bad lines. (default: 10)
      --memory <size>         The sort buffer size. (default: 512M)
      --json                  Print the summary as JSON.
      -s, --strict            Treat warnings as errors.
      -h, --help              Show help information.

    """

  static let deviceHelp = """
    OVERVIEW: Work with a device's Call Directory store.

    USAGE: calldir device <subcommand>

    OPTIONS:
      -h, --help              Show help information.

    SUBCOMMANDS:
      load                    Load a dataset into the store.
      dump                    Print the numbers in a store.

      See 'calldir help device <subcommand>' for detailed help.

    """

  static let loadHelp = """
    OVERVIEW: Load a dataset into the store.

    USAGE: calldir device load <path> [<id>] [--dry-run]

    ARGUMENTS:
      <path>                  The store directory.
      <id>                    The extension identifier. (default: default)

    OPTIONS:
      --dry-run               Check without writing.
      -h, --help              Show help information.

    """

  @Test(arguments: [["--help"], ["-h"], ["help"]])
  func rootHelp(_ arguments: [String]) {
    let run = ToolRun(arguments)
    #expect(run.code == .success)
    #expect(run.standardError == "")
    #expect(run.standardOutput == Self.rootHelp)
  }

  @Test(arguments: [
    ["compile", "--help"], ["compile", "-h"], ["help", "compile"],
    ["compile", "a", "--region", "US", "--help"], ["compile", "--regoin", "-h"],
  ])
  func leafHelp(_ arguments: [String]) {
    let run = ToolRun(arguments)
    #expect(run.code == .success)
    #expect(run.standardError == "")
    #expect(run.standardOutput == Self.compileHelp)
  }

  @Test(arguments: [["device", "--help"], ["help", "device"], ["device", "-h"]])
  func groupHelp(_ arguments: [String]) {
    let run = ToolRun(arguments)
    #expect(run.code == .success)
    #expect(run.standardOutput == Self.deviceHelp)
  }

  @Test(arguments: [["device", "load", "--help"], ["help", "device", "load"], ["device", "load", "x", "-h"]])
  func nestedLeafHelp(_ arguments: [String]) {
    let run = ToolRun(arguments)
    #expect(run.code == .success)
    #expect(run.standardOutput == Self.loadHelp)
  }

  @Test func helpForTooManyNamesIsAUsageError() {
    let run = ToolRun("help", "device", "load", "more")
    #expect(run.code == .usage)
    #expect(run.standardError.hasPrefix("error: unexpected argument 'more'\n"))
  }

  @Test func everyHelpLineIsWithinEightyColumns() {
    for arguments in [["--help"], ["compile", "--help"], ["device", "--help"], ["device", "load", "--help"]] {
      let text = ToolRun(arguments).standardOutput
      for line in text.split(separator: "\n") {
        #expect(line.count <= 80, "\(line)")
        #expect(!line.hasSuffix(" "), "trailing space in '\(line)'")
      }
    }
  }

  @Test func versionGoesToStandardOutput() {
    let run = ToolRun("--version")
    #expect(run.code == .success)
    #expect(run.standardOutput == "calldir 1.2.3\n")
    #expect(run.standardError == "")
  }

  @Test func versionIsOnlyAcceptedOnTheRoot() {
    let run = ToolRun("device", "load", "--version")
    #expect(run.code == .usage)
    #expect(run.standardError.hasPrefix("error: unknown option '--version'\n"))
  }
}

/// A runnable root without subcommands, with a label too long for the description column.
private struct SingleTool: RunnableCommand {
  static let configuration = CommandConfiguration(
    name: "single",
    abstract: "Do one thing.",
    version: "single 2.0")

  @Option(
    short: "d", valueName: "directory",
    help: "A directory of word lists that is searched before the built-in ones, in order.")
  var dictionaryPath: String?
  @Argument(help: "Words.")
  var word: [String]

  func run(context: CommandContext) throws { context.standardOutput.write("ran\n") }
}

@Suite struct SingleCommandHelpTests {
  @Test func longLabelsPutTheDescriptionOnTheNextLine() {
    let run = ToolRun("--help", root: SingleTool.self)
    #expect(run.code == .success)
    #expect(run.standardOutput == """
      OVERVIEW: Do one thing.

      USAGE: single [--dictionary-path <directory>] [<word> ...]

      ARGUMENTS:
        <word>                  Words.

      OPTIONS:
        -d, --dictionary-path <directory>
                                A directory of word lists that is searched before the
                                built-in ones, in order.
        --version               Show the version.
        --generate-completion-script <shell>
                                Print the completion script for a shell: bash, zsh or
                                fish.
        --generate-manual       Print the manual page (roff, for man(1)).
        -h, --help              Show help information.

      """)
  }

  @Test func runnableRootRunsAndAnswersVersion() {
    #expect(ToolRun([], root: SingleTool.self).standardOutput == "ran\n")
    #expect(ToolRun(["--version"], root: SingleTool.self).standardOutput == "single 2.0\n")
  }
}

@Suite struct HelpCommandTests {
  @Test func helpIgnoresHelpFlags() {
    #expect(ToolRun("help", "--help").standardOutput == HelpTests.rootHelp)
    #expect(ToolRun("help", "device", "-h").standardOutput == HelpTests.deviceHelp)
  }
}

@Suite struct HiddenCommandTests {
  enum Root: Command {
    static let configuration = CommandConfiguration(
      name: "tool", abstract: "A tool.", subcommands: [Visible.self, Secret.self])
  }
  struct Visible: RunnableCommand {
    static let configuration = CommandConfiguration(name: "visible", abstract: "Shown.")
    func run(context: CommandContext) throws { context.standardOutput.writeLine("visible ran") }
  }
  struct Secret: RunnableCommand {
    static let configuration = CommandConfiguration(name: "_secret", abstract: "Hidden.", isHidden: true)
    func run(context: CommandContext) throws { context.standardOutput.writeLine("secret ran") }
  }

  @Test func hiddenCommandsRunButStayOutOfHelp() {
    let help = MemorySink()
    _ = CommandLineTool.run(root: Root.self, arguments: ["--help"], standardOutput: help, standardError: MemorySink())
    #expect(help.text.contains("visible"))
    #expect(!help.text.contains("_secret"))
    let output = MemorySink()
    let code = CommandLineTool.run(root: Root.self, arguments: ["_secret"], standardOutput: output, standardError: MemorySink())
    #expect(code == .success)
    #expect(output.text == "secret ran\n")
  }
}
