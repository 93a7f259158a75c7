/// What a running command receives besides its arguments: where to write.
public struct CommandContext {
  /// Where results go (standard output in the real tool).
  public let standardOutput: any OutputSink
  /// Where diagnostics and progress go (standard error in the real tool).
  public let standardError: any OutputSink
  /// The names of the commands from the root to the running one.
  public let commandPath: [String]

  /// Creates a context; the tool does this for you.
  public init(standardOutput: any OutputSink, standardError: any OutputSink, commandPath: [String]) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.commandPath = commandPath
  }

  /// A progress line on standard error, active only when it is a terminal.
  public func makeProgressReporter() -> ProgressReporter {
    ProgressReporter(output: standardError)
  }
}
