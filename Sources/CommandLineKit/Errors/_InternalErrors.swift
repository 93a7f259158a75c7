/// A usage error found while resolving a different command than the one being run.
struct _LocatedUsageError: Error {
  let error: UsageError
  let path: [any Command.Type]
}

/// A mistake in a command declaration, reported as an internal software error.
struct _DeclarationError: CommandLineError {
  let command: String
  let problem: String
  var exitCode: ExitCode { .software }
  var message: String { "invalid declaration of command '\(command)': \(problem)" }
}
