import CommandLineKit

/// The outcome of running a command tree in memory.
struct ToolRun {
  let code: ExitCode
  let standardOutput: String
  let standardError: String

  /// Runs `root` with `arguments` against in-memory sinks.
  init(_ arguments: [String], root: any Command.Type = SampleTool.self) {
    let output = MemorySink()
    let error = MemorySink()
    code = CommandLineTool.run(root: root, arguments: arguments, standardOutput: output, standardError: error)
    standardOutput = output.text
    standardError = error.text
  }

  /// Runs `root` with `arguments` against in-memory sinks.
  init(_ arguments: String..., root: any Command.Type = SampleTool.self) {
    self.init(arguments, root: root)
  }
}
