import CalldirSystem

/// A malformed JSON document given to a command is a data error.
extension JSONParseError: CommandLineError {
  /// ``ExitCode/dataError``: the input is malformed.
  public var exitCode: ExitCode { .dataError }
}
