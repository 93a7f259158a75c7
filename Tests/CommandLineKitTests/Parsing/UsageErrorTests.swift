import CommandLineKit
import Testing

/// One command line that must fail with a usage error.
struct UsageErrorCase: CustomTestStringConvertible, Sendable {
  let arguments: [String]
  let message: String
  let usage: String
  let command: String

  var testDescription: String { arguments.joined(separator: " ") }

  var expectedStandardError: String {
    "error: \(message)\nusage: \(usage)\n  See '\(command) --help' for more information.\n"
  }
}

private let compileUsage =
  "calldir compile <input> ... --output <path> [--region <cc>] [--exclude <file> ...]"
  + " [--max-errors <n>] [--memory <size>] [--json] [--strict]"

@Suite struct UsageErrorTests {
  static let cases: [UsageErrorCase] = [
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--regoin", "US"],
      message: "unknown option '--regoin'; did you mean '--region'?",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--zzzzzz"],
      message: "unknown option '--zzzzzz'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "-q"],
      message: "unknown option '-q'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "", "a"],
      message: "invalid value '' for '--output': expected a value that is not empty",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "a", "--output="],
      message: "invalid value '' for '--output': expected a value that is not empty",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--region"],
      message: "missing value for option '--region'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "a", "-o", "--json"],
      message: "missing value for option '-o'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "a"],
      message: "missing expected argument '--output <path>'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x"],
      message: "missing expected argument '<input>'",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--json=yes"],
      message: "option '--json' does not take a value (got 'yes')",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--max-errors", "ten"],
      message: "invalid value 'ten' for '--max-errors <n>': expected an integer",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["compile", "-o", "x", "a", "--memory=lots"],
      message: "invalid value 'lots' for '--memory <size>': expected a size such as 512M, 2G or 100k",
      usage: compileUsage, command: "calldir compile"),
    UsageErrorCase(
      arguments: ["device", "load", "store", "id", "extra"],
      message: "unexpected argument 'extra'",
      usage: "calldir device load <path> [<id>] [--dry-run]", command: "calldir device load"),
    UsageErrorCase(
      arguments: ["device", "lod"],
      message: "unknown subcommand 'lod'; did you mean 'load'?",
      usage: "calldir device <subcommand>", command: "calldir device"),
    UsageErrorCase(
      arguments: ["devcie", "load"],
      message: "unknown subcommand 'devcie'; did you mean 'device'?",
      usage: "calldir <subcommand>", command: "calldir"),
    UsageErrorCase(
      arguments: ["frobnicate"],
      message: "unknown subcommand 'frobnicate'",
      usage: "calldir <subcommand>", command: "calldir"),
    UsageErrorCase(
      arguments: ["--verison"],
      message: "unknown option '--verison'; did you mean '--version'?",
      usage: "calldir <subcommand>", command: "calldir"),
    UsageErrorCase(
      arguments: ["device", "--json"],
      message: "unknown option '--json'",
      usage: "calldir device <subcommand>", command: "calldir device"),
    UsageErrorCase(
      arguments: ["help", "device", "lod"],
      message: "unknown subcommand 'lod'; did you mean 'load'?",
      usage: "calldir device <subcommand>", command: "calldir device"),
    UsageErrorCase(
      arguments: ["fail", "usage"],
      message: "'kind' cannot be 'usage'",
      usage: "calldir fail <kind> [--json] [--silent]", command: "calldir fail"),
  ]

  @Test(arguments: cases)
  func reportsUsageError(_ testCase: UsageErrorCase) {
    let run = ToolRun(testCase.arguments)
    #expect(run.code == .usage)
    #expect(run.code.rawValue == 64)
    #expect(run.standardError == testCase.expectedStandardError)
    #expect(!run.standardOutput.contains("error") || testCase.arguments.contains("--json"))
  }

  @Test func aCommandRunWithJSONAnswersAUsageErrorWithAJSONDocumentToo() {
    for arguments in [
      ["compile", "a", "--json"], ["compile", "-o", "x", "a", "--json", "--max-errors", "-1"],
      ["compile", "-o", "x", "a", "--json", "--regoin", "US"],
    ] {
      let run = ToolRun(arguments)
      let plain = ToolRun(arguments.filter { $0 != "--json" })
      #expect(run.code == .usage && run.standardError == plain.standardError)
      let message = plain.standardError.split(separator: "\n")[0].dropFirst("error: ".count)
      #expect(run.standardOutput == #"{"error":{"kind":"usage","message":"\#(message)"}}"# + "\n", "\(arguments)")
    }
    // Not with --json after `--` (a positional), nor for a command without the flag.
    #expect(ToolRun("compile", "a", "--", "--json").standardOutput == "")
  }

  @Test func groupWithoutSubcommandPrintsHelpToStandardError() {
    let run = ToolRun("device")
    #expect(run.code == .usage)
    #expect(run.standardOutput == "")
    #expect(run.standardError == ToolRun("device", "--help").standardOutput)
    #expect(run.standardError.hasPrefix("OVERVIEW: Work with a device's Call Directory store.\n"))
  }

  @Test func rootWithoutSubcommandPrintsHelpToStandardError() {
    let run = ToolRun([])
    #expect(run.code == .usage)
    #expect(run.standardError.hasPrefix("OVERVIEW: Compile iOS Call Directory datasets.\n"))
  }
}

@Suite struct ThrownErrorTests {
  @Test func commandLineErrorChoosesItsExitCode() {
    let run = ToolRun("fail", "data")
    #expect(run.code == .dataError)
    #expect(run.standardOutput == "partial output\n")
    #expect(run.standardError == "error: bad number on line 7\n")
  }

  @Test func aFailureUnderJSONIsAnsweredWithAJSONDocumentUnlessTheCommandWroteOne() {
    let data = ToolRun("fail", "data", "--json", "--silent")
    #expect(data.code == .dataError && data.standardError == "error: bad number on line 7\n")
    #expect(data.standardOutput == #"{"error":{"kind":"data","message":"bad number on line 7"}}"# + "\n")
    #expect(ToolRun("fail", "other", "--json", "--silent").standardOutput
      == #"{"error":{"kind":"internal","message":"something broke"}}"# + "\n")
    // The command's own output stands; a thrown ExitCode stays silent.
    #expect(ToolRun("fail", "data", "--json").standardOutput == "partial output\n")
    #expect(ToolRun("fail", "exit", "--json", "--silent").standardOutput == "")
    #expect(ToolRun("fail", "data", "--silent").standardOutput == "")
  }

  @Test func thrownExitCodeIsSilent() {
    let run = ToolRun("fail", "exit")
    #expect(run.code == .tempFail)
    #expect(run.standardError == "")
  }

  @Test func otherErrorsAreSoftwareErrors() {
    let run = ToolRun("fail", "other")
    #expect(run.code == .software)
    #expect(run.code.rawValue == 70)
    #expect(run.standardError == "error: something broke\n")
  }

  @Test func exitCodesFollowSysexits() {
    let expected: [ExitCode: Int32] = [
      .success: 0, .failure: 1, .usage: 64, .dataError: 65, .noInput: 66,
      .software: 70, .cantCreate: 73, .ioError: 74, .tempFail: 75,
    ]
    for code in ExitCode.allCases { #expect(code.rawValue == expected[code]) }
    #expect(ExitCode.allCases.count == expected.count)
  }
}
