import CalldirSystem
import CommandLineKit

/// A small command tree shaped like calldir, used by the parsing and help tests.
enum SampleTool: Command {
  static let configuration = CommandConfiguration(
    name: "calldir",
    abstract: "Compile iOS Call Directory datasets.",
    version: "calldir 1.2.3",
    subcommands: [Compile.self, Device.self, Fail.self])
}

extension SampleTool {
  /// A leaf that echoes its parsed arguments as one JSON line.
  struct Compile: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "compile",
      abstract: "Compile phone number lists into a dataset.",
      discussion: "Reads CSV or text files and writes a sorted, deduplicated dataset.",
      arguments: [
        .positional("input", arity: .oneOrMore, help: "Input files."),
        .option("output", short: "o", valueName: "path", isRequired: true, help: "Where to write the dataset."),
        .option("region", valueName: "cc", defaultValue: "ZZ",
                help: "Default region for numbers without a country code."),
        .option("exclude", valueName: "file", isRepeatable: true, help: "A list of numbers to leave out."),
        .option("max-errors", valueName: "n", defaultValue: "10", help: "Stop after this many bad lines."),
        .option("memory", valueName: "size", defaultValue: "512M", help: "The sort buffer size."),
        .flag("json", help: "Print the summary as JSON."),
        .flag("strict", short: "s", help: "Treat warnings as errors."),
      ])

    var arguments: ParsedArguments
    var maxErrors: Int
    var memory: Int

    init(arguments: ParsedArguments) throws {
      self.arguments = arguments
      maxErrors = try arguments.int("max-errors") ?? 0
      memory = try arguments.size("memory") ?? 0
    }

    func validate() throws {
      if maxErrors < 0 { throw UsageError.invalid("'--max-errors' must not be negative") }
    }

    func run(context: CommandContext) throws {
      let value: JSONValue = [
        "input": .array(arguments.strings("input").map(JSONValue.string)),
        "output": .string(arguments.string("output") ?? ""),
        "region": .string(arguments.string("region") ?? ""),
        "exclude": .array(arguments.strings("exclude").map(JSONValue.string)),
        "maxErrors": .int(Int64(maxErrors)),
        "memory": .int(Int64(memory)),
        "json": .bool(arguments.flag("json")),
        "strict": .bool(arguments.flag("strict")),
      ]
      context.standardOutput.writeJSONLine(value)
    }
  }

  /// A pure group with two leaves.
  enum Device: Command {
    static let configuration = CommandConfiguration(
      name: "device",
      abstract: "Work with a device's Call Directory store.",
      subcommands: [Load.self, Dump.self])
  }

  /// A command whose run body throws the error named by `--kind`.
  struct Fail: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "fail",
      abstract: "Fail on purpose.",
      arguments: [
        .positional("kind", help: "Which error to throw."),
        .flag("json", help: "Answer in JSON."),
        .flag("silent", help: "Print nothing before failing."),
      ])

    var kind: String
    var silent: Bool

    init(arguments: ParsedArguments) throws {
      kind = try arguments.requiredString("kind")
      silent = arguments.flag("silent")
    }

    func run(context: CommandContext) throws {
      if !silent { context.standardOutput.write("partial output\n") }
      switch kind {
      case "data": throw SampleError.badLine(7)
      case "exit": throw ExitCode.tempFail
      case "usage": throw UsageError.invalid("'kind' cannot be 'usage'")
      default: throw PlainError()
      }
    }
  }
}

extension SampleTool.Device {
  struct Load: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "load",
      abstract: "Load a dataset into the store.",
      arguments: [
        .positional("store", valueName: "path", help: "The store directory."),
        .positional("extension-id", valueName: "id", arity: .optional, defaultValue: "default",
                    help: "The extension identifier."),
        .flag("dry-run", help: "Check without writing."),
      ])

    var arguments: ParsedArguments
    init(arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(context: CommandContext) throws {
      context.standardOutput.writeLine(
        "load \(arguments.string("store") ?? "-") \(arguments.string("extension-id") ?? "-")"
          + (arguments.flag("dry-run") ? " dry-run" : ""))
    }
  }

  struct Dump: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "dump",
      abstract: "Print the numbers in a store.",
      arguments: [
        .option("limit", short: "n", valueName: "count", help: "Print at most this many numbers."),
        .positional("numbers", arity: .zeroOrMore, help: "Numbers to look up."),
      ])

    var limit: Int?
    var numbers: [String]

    init(arguments: ParsedArguments) throws {
      limit = try arguments.int("limit")
      numbers = arguments.strings("numbers")
    }

    func run(context: CommandContext) throws {
      context.standardOutput.writeLine("limit=\(limit.map(String.init) ?? "none") numbers=\(numbers)")
    }
  }
}

enum SampleError: CommandLineError {
  case badLine(Int)
  var exitCode: ExitCode { .dataError }
  var message: String {
    switch self {
    case .badLine(let line): return "bad number on line \(line)"
    }
  }
}

struct PlainError: Error, CustomStringConvertible {
  var description: String { "something broke" }
}
