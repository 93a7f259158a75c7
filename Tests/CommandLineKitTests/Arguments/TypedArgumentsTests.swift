@testable import CommandLineKit
import Testing

private enum Shape: String, CaseIterable, ExpressibleByArgument {
  case circle, square
}

/// Options of every basic kind, none required.
private struct Probe: ParsableArguments {
  @Option(valueName: "n", help: "A count.")
  var count: Int?
  @Option(help: "A size.")
  var size: ByteSize?
  @Option(help: "A name.")
  var name = "anon"
  @Flag(help: "Talk more.")
  var verbose: Bool
}

/// A required option, an enumeration, repeated options and an unsigned integer.
private struct Typed: ParsableArguments {
  @Option(valueName: "n", help: "A count.")
  var count: Int
  @Option(valueName: "shape", help: "A shape.")
  var shape: Shape = .circle
  @Option(name: "also", valueName: "shape", help: "More shapes.")
  var shapes: [Shape]
  @Option(valueName: "file", help: "Files to leave out.")
  var exclude: [String]
  @Option(valueName: "seed", help: "A seed.")
  var seed: UInt64 = 7
}

/// Ranges, with the default message and with a message of their own.
private struct Ranged: ParsableArguments {
  @Option(valueName: "n", help: "Between 1 and 10.", range: 1...10)
  var level = 5
  @Option(valueName: "n", help: "At least 0.", range: 0..., outOfRange: { "--depth must not be negative, not \($0)" })
  var depth = 0
}

private struct Mistake: Error, CustomStringConvertible {
  var description: String { "a day such as 2026-12-01" }
}

/// Words a transform converts.
private struct Transformed: ParsableArguments {
  @Option(
    valueName: "n", help: "An even number.",
    transform: { (text: String) throws(UsageError) in
      guard let value = Int(text), value % 2 == 0 else { throw .invalid("--even must be even, not '\(text)'") }
      return value
    })
  var even: Int
  @Option(valueName: "day", help: "A day.", transform: { text in
    guard text.count == 10 else { throw Mistake() }
    return text
  })
  var day: String?
}

/// A shared group with a check of its own.
private struct Window: ParsableArguments {
  @Option(valueName: "n", help: "The first.")
  var from = 1
  @Option(valueName: "n", help: "The last.")
  var to = 10

  func validate() throws {
    if to < from { throw UsageError.invalid("--to must not be before --from") }
  }
}

private struct Windowed: RunnableCommand {
  static let configuration = CommandConfiguration(name: "windowed", abstract: "Use a window.")
  @Argument(valueName: "file", help: "A file.")
  var file: String
  @OptionGroup
  var window: Window
  @Flag(.json)
  var json: Bool
  @Flag(.verbose, help: "Say everything.")
  var verbose: Bool

  func run(context: CommandContext) throws {
    context.standardOutput.writeLine("\(file) \(window.from)...\(window.to) json=\(json) verbose=\(verbose)")
  }
}

@Suite struct TypedArgumentsTests {
  @Test func valuesArriveTyped() throws {
    let probe = try ToolParse.parse(Probe.self, ["--count", "42", "--size", "100k", "--verbose"])
    #expect(probe.count == 42)
    #expect(probe.size?.bytes == 102_400)
    #expect(probe.size?.text == "100k")
    #expect(probe.verbose)
    #expect(probe.name == "anon")
  }

  @Test func absentValuesAreNilOrTheDefault() throws {
    let probe = try ToolParse.parse(Probe.self, [])
    #expect(probe.count == nil)
    #expect(probe.size == nil)
    #expect(probe.verbose == false)
    #expect(probe.name == "anon")
    #expect(try ToolParse.parse(Probe.self, ["--name", "bo"]).name == "bo")
  }

  @Test func namesComeFromThePropertiesInKebabCase() {
    #expect(_Declarations.name(fromLabel: "_maxErrors") == "max-errors")
    #expect(_Declarations.name(fromLabel: "_json") == "json")
    #expect(_Declarations.name(fromLabel: "_dryRunNow") == "dry-run-now")
    #expect(ToolParse.specs(Probe.self).map(\.name) == ["count", "size", "name", "verbose"])
    #expect(ToolParse.specs(Typed.self).map(\.name) == ["count", "shape", "also", "exclude", "seed"])
  }

  @Test func badValuesAreUsageErrors() {
    #expect(throws: UsageError.invalidValue("12x", argument: "--count <n>", expected: "an integer")) {
      try ToolParse.parse(Probe.self, ["--count", "12x"])
    }
    #expect(throws: UsageError.invalidValue("5Q", argument: "--size <size>", expected: "a size such as 512M, 2G or 100k")) {
      try ToolParse.parse(Probe.self, ["--size", "5Q"])
    }
    #expect(throws: UsageError.missingArgument("--count <n>")) { try ToolParse.parse(Typed.self, []) }
  }

  @Test func enumerationsListTheirValues() throws {
    let typed = try ToolParse.parse(Typed.self, ["--count", "1", "--shape", "square", "--also", "circle", "--also=square"])
    #expect(typed.shape == .square)
    #expect(typed.shapes == [.circle, .square])
    #expect(try ToolParse.parse(Typed.self, ["--count", "1"]).shape == .circle)
    #expect(throws: UsageError.invalidValue("hexagon", argument: "--shape <shape>", expected: "one of circle, square")) {
      try ToolParse.parse(Typed.self, ["--count", "1", "--shape", "hexagon"])
    }
    let shape = ToolParse.specs(Typed.self)[1]
    #expect(shape.allowedValues == ["circle", "square"])
    #expect(shape.completion == .values(["circle", "square"]))
    #expect(shape.defaultValue == "circle")
    #expect(_HelpGenerator.describe(shape) == "A shape. (values: circle, square; default: circle)")
    #expect(_HelpGenerator.describe(ToolParse.specs(Typed.self)[2]) == "More shapes. (values: circle, square)")
  }

  @Test func repeatedOptionsKeepEveryValueInOrder() throws {
    let typed = try ToolParse.parse(Typed.self, ["--exclude", "a", "--count", "3", "--exclude=b", "--exclude", "c"])
    #expect(typed.exclude == ["a", "b", "c"])
    #expect(typed.shapes == [])
    #expect(typed.count == 3)
    #expect(_HelpGenerator.usageElement(ToolParse.specs(Typed.self)[3]) == "[--exclude <file> ...]")
  }

  @Test func unsignedIntegersTakeTheWholeRange() throws {
    #expect(try ToolParse.parse(Typed.self, ["--count", "1"]).seed == 7)
    #expect(try ToolParse.parse(Typed.self, ["--count", "1", "--seed", "18446744073709551615"]).seed == UInt64.max)
    #expect(throws: UsageError.invalidValue("-1", argument: "--seed <seed>", expected: "a non-negative integer")) {
      try ToolParse.parse(Typed.self, ["--count", "1", "--seed", "-1"])
    }
  }

  @Test func rangesRefuseValuesOutside() throws {
    #expect(try ToolParse.parse(Ranged.self, []).level == 5)
    #expect(try ToolParse.parse(Ranged.self, ["--level", "10", "--depth", "3"]).depth == 3)
    #expect(throws: UsageError.invalidValue("11", argument: "--level <n>", expected: "an integer between 1 and 10")) {
      try ToolParse.parse(Ranged.self, ["--level", "11"])
    }
    #expect(throws: UsageError.invalid("--depth must not be negative, not -2")) {
      try ToolParse.parse(Ranged.self, ["--depth", "-2"])
    }
    #expect(throws: UsageError.invalidValue("x", argument: "--depth <n>", expected: "an integer")) {
      try ToolParse.parse(Ranged.self, ["--depth", "x"])
    }
  }

  @Test func transformsConvertAndRefuse() throws {
    #expect(try ToolParse.parse(Transformed.self, ["--even", "4"]).even == 4)
    #expect(try ToolParse.parse(Transformed.self, ["--even", "4"]).day == nil)
    #expect(try ToolParse.parse(Transformed.self, ["--even", "4", "--day", "2026-12-01"]).day == "2026-12-01")
    #expect(throws: UsageError.invalid("--even must be even, not '3'")) {
      try ToolParse.parse(Transformed.self, ["--even", "3"])
    }
    #expect(throws: UsageError.missingArgument("--even <n>")) { try ToolParse.parse(Transformed.self, []) }
    #expect(throws: UsageError.invalidValue("soon", argument: "--day <day>", expected: "a day such as 2026-12-01")) {
      try ToolParse.parse(Transformed.self, ["--even", "2", "--day", "soon"])
    }
  }

  @Test func sharedDeclarationsKeepTheirNameAndMayChangeTheirHelp() {
    let specs = ToolParse.specs(Windowed.self)
    #expect(specs.map(\.name) == ["file", "from", "to", "json", "verbose"])
    #expect(specs[3].help == FlagDeclaration.json.help)
    #expect(specs[4].short == "v")
    #expect(specs[4].help == "Say everything.")
  }

  @Test func groupsParseInPlaceAndValidate() {
    let run = ToolRun(["f.txt", "--to", "20", "--json", "-v", "--from=3"], root: Windowed.self)
    #expect(run.code == .success)
    #expect(run.standardOutput == "f.txt 3...20 json=true verbose=true\n")
    #expect(ToolRun(["f.txt"], root: Windowed.self).standardOutput == "f.txt 1...10 json=false verbose=false\n")
    let refused = ToolRun(["f.txt", "--from", "5", "--to", "2"], root: Windowed.self)
    #expect(refused.code == .usage)
    #expect(refused.standardError.hasPrefix("error: --to must not be before --from\nusage: windowed "))
  }

  @Test func aGroupsOptionsShowWhereTheGroupIs() {
    let run = ToolRun(["--help"], root: Windowed.self)
    #expect(run.standardOutput.contains(
      "USAGE: windowed <file> [--from <n>] [--to <n>] [--json] [--verbose]\n"))
    #expect(run.standardOutput.contains("""
        --from <n>              The first. (default: 1)
        --to <n>                The last. (default: 10)
        --json                  Print the result as one JSON object.
        -v, --verbose           Say everything.

      """))
  }

  @Test func theSharedJSONFlagAnswersFailuresInJSON() {
    let run = ToolRun(["f.txt", "--from", "x", "--json"], root: Windowed.self)
    #expect(run.code == .usage)
    #expect(run.standardOutput.contains("\"invalid value 'x' for '--from <n>': expected an integer\""))
  }
}
