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
      discussion: "Reads CSV or text files and writes a sorted, deduplicated dataset.")

    @Argument(atLeastOne: true, help: "Input files.")
    var input: [String]
    @Option(short: "o", valueName: "path", help: "Where to write the dataset.")
    var output: String
    @Option(valueName: "cc", help: "Default region for numbers without a country code.")
    var region = "ZZ"
    @Option(valueName: "file", help: "A list of numbers to leave out.")
    var exclude: [String]
    @Option(valueName: "n", help: "Stop after this many bad lines.")
    var maxErrors = 10
    @Option(valueName: "size", help: "The sort buffer size.")
    var memory: ByteSize = "512M"
    @Flag(.json, help: "Print the summary as JSON.")
    var json: Bool
    @Flag(short: "s", help: "Treat warnings as errors.")
    var strict: Bool

    func validate() throws {
      if maxErrors < 0 { throw UsageError.invalid("'--max-errors' must not be negative") }
    }

    func run(context: CommandContext) throws {
      let value: JSONValue = [
        "input": .array(input.map(JSONValue.string)),
        "output": .string(output),
        "region": .string(region),
        "exclude": .array(exclude.map(JSONValue.string)),
        "maxErrors": .int(Int64(maxErrors)),
        "memory": .int(Int64(memory.bytes)),
        "json": .bool(json),
        "strict": .bool(strict),
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
      abstract: "Fail on purpose.")

    @Argument(help: "Which error to throw.")
    var kind: String
    @Flag(.json, help: "Answer in JSON.")
    var json: Bool
    @Flag(help: "Print nothing before failing.")
    var silent: Bool

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
      abstract: "Load a dataset into the store.")

    @Argument(valueName: "path", help: "The store directory.")
    var store: String
    @Argument(name: "extension-id", valueName: "id", help: "The extension identifier.")
    var extensionID = "default"
    @Flag(help: "Check without writing.")
    var dryRun: Bool

    func run(context: CommandContext) throws {
      context.standardOutput.writeLine("load \(store) \(extensionID)" + (dryRun ? " dry-run" : ""))
    }
  }

  struct Dump: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "dump",
      abstract: "Print the numbers in a store.")

    @Option(short: "n", valueName: "count", help: "Print at most this many numbers.")
    var limit: Int?
    @Argument(help: "Numbers to look up.")
    var numbers: [String]

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
