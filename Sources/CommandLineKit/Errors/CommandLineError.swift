import CalldirSystem

/// An error that knows how it is reported on the command line: its exit
/// status, its message, and its `--json` envelope, all in one place.
///
/// Library errors adopt this protocol to choose their own exit code and
/// message. The tool prints `error: <message>` to standard error and exits
/// with ``exitCode``. Errors whose exit code is ``ExitCode/usage`` are also
/// followed by the command's usage line and a pointer to its help. A command
/// run with `--json` that fails before printing a document of its own
/// prints ``jsonEnvelope`` on standard output.
public protocol CommandLineError: Error {
  /// The status the process exits with when this error ends the command.
  var exitCode: ExitCode { get }
  /// The lowercase, one-line message printed after `error: `.
  var message: String { get }
  /// The `kind` of the `--json` error object: the exit status's name
  /// (``ExitCode/jsonKind``) unless the error names its failure more
  /// precisely.
  var kind: String { get }
  /// What `--json` prints for this failure: by default
  /// `{"error": {"kind", "message"}}`.
  var jsonEnvelope: JSONValue { get }
}

extension CommandLineError {
  public var kind: String { exitCode.jsonKind }

  public var jsonEnvelope: JSONValue {
    ["error": ["kind": .string(kind), "message": .string(message)]]
  }
}

/// A failure the tool itself finds (not a library's error): a status and a
/// message.
public struct CommandFailure: CommandLineError, Sendable, Hashable {
  public let exitCode: ExitCode
  public let message: String

  /// A failure that ends the command with `exitCode` and `message`.
  public init(_ exitCode: ExitCode, _ message: String) {
    self.exitCode = exitCode
    self.message = message
  }
}
