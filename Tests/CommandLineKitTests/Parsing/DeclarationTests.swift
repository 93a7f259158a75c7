@testable import CommandLineKit
import Testing

@Suite struct DeclarationTests {
  private func problems(_ arguments: [ArgumentSpec], isRoot: Bool = false) -> [String] {
    _DeclarationChecker.problems(
      in: CommandConfiguration(name: "x", abstract: "X.", version: "1"), arguments: arguments,
      isRoot: isRoot, isRunnable: true)
  }

  @Test func sampleTreeIsValid() {
    #expect(ToolRun("compile", "-o", "x", "a").code == .success)
    #expect(problems(ToolParse.specs(SampleTool.Compile.self)).isEmpty)
  }

  @Test func findsDeclarationMistakes() {
    #expect(problems([.flag("a", help: ""), .option("a", help: "")]) == ["argument 'a' is declared twice"])
    #expect(problems([.flag("a", short: "v", help: ""), .flag("b", short: "v", help: "")])
      == ["short name '-v' is declared twice"])
    #expect(problems([.flag("help", help: "")]) == ["option '--help' is reserved"])
    #expect(problems([.flag("version", help: "")], isRoot: true) == ["option '--version' is reserved"])
    #expect(problems([.flag("version", help: "")], isRoot: false).isEmpty)
    #expect(problems([.flag("quiet", short: "h", help: "")]) == ["short name '-h' is reserved for help"])
    #expect(problems([.flag("--quiet", help: "")]) == ["invalid argument name '--quiet'"])
    #expect(problems([.positional("a", arity: .zeroOrMore, help: ""), .positional("b", help: "")])
      == ["positional argument 'b' follows a variadic argument"])
    #expect(problems([.positional("a", arity: .optional, help: ""), .positional("b", help: "")])
      == ["required argument 'b' follows an optional one"])
  }

  /// A group that declares `--json`, used by a command that declares it too.
  private struct Output: ParsableArguments {
    @Flag(.json)
    var json: Bool
  }

  private struct Twice: RunnableCommand {
    static let configuration = CommandConfiguration(name: "twice", abstract: "Twice.")
    @Flag(.json, help: "Mine.")
    var json: Bool
    @OptionGroup
    var output: Output
    func run(context: CommandContext) throws {}
  }

  private struct ShortTwice: RunnableCommand {
    static let configuration = CommandConfiguration(name: "short-twice", abstract: "Short twice.")
    @Flag(short: "v", help: "One.")
    var verbose: Bool
    @Option(short: "v", valueName: "n", help: "Two.")
    var level: Int?
    func run(context: CommandContext) throws {}
  }

  @Test func declarationsThroughPropertiesAreChecked() {
    #expect(problems(ToolParse.specs(Twice.self)) == ["argument 'json' is declared twice"])
    let run = ToolRun(["--json"], root: Twice.self)
    #expect(run.code == .software)
    #expect(run.standardError == "error: invalid declaration of command 'twice': argument 'json' is declared twice\n")
    #expect(ToolRun([], root: ShortTwice.self).standardError
      == "error: invalid declaration of command 'short-twice': short name '-v' is declared twice\n")
  }

  private enum Broken: Command {
    static let configuration = CommandConfiguration(name: "broken", abstract: "Broken.")
  }

  @Test func invalidTreesFailAsSoftwareErrors() {
    let run = ToolRun(["anything"], root: Broken.self)
    #expect(run.code == .software)
    #expect(run.standardError
      == "error: invalid declaration of command 'broken': a command that is not runnable must have subcommands\n")
  }
}
