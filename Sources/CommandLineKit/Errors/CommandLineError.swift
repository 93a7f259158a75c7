/// An error that knows how it is reported on the command line.
///
/// Library errors adopt this protocol to choose their own exit code and
/// message. The tool prints `error: <message>` to standard error and exits
/// with ``exitCode``. Errors whose exit code is ``ExitCode/usage`` are also
/// followed by the command's usage line and a pointer to its help.
public protocol CommandLineError: Error {
  /// The status the process exits with when this error ends the command.
  var exitCode: ExitCode { get }
  /// The lowercase, one-line message printed after `error: `.
  var message: String { get }
}
