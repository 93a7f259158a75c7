/// A process exit status, following the BSD `sysexits.h` conventions.
///
/// `ExitCode` is also an `Error`: a command may `throw ExitCode.failure` to
/// end with that status without printing anything further (for example after
/// it has already reported its own diagnostics).
public enum ExitCode: Int32, Error, Sendable, Hashable, CaseIterable {
  /// The command succeeded.
  case success = 0
  /// A generic failure.
  case failure = 1
  /// The command was used incorrectly. The corresponding C constant is `EX_USAGE`.
  case usage = 64
  /// The input data was incorrect. The corresponding C constant is `EX_DATAERR`.
  case dataError = 65
  /// An input file did not exist or was not readable. The corresponding C constant is `EX_NOINPUT`.
  case noInput = 66
  /// An internal software error. The corresponding C constant is `EX_SOFTWARE`.
  case software = 70
  /// An output file could not be created. The corresponding C constant is `EX_CANTCREAT`.
  case cantCreate = 73
  /// An error occurred while doing I/O. The corresponding C constant is `EX_IOERR`.
  case ioError = 74
  /// A temporary failure; retrying may succeed. The corresponding C constant is `EX_TEMPFAIL`.
  case tempFail = 75
}

extension ExitCode {
  /// The status's name in a `--json` error document's `kind`: `failure`,
  /// `usage`, `data`, `noInput`, `internal`, `cantCreate`, `io`, `tryAgain`
  /// (`success` for 0).
  public var jsonKind: String {
    switch self {
    case .success: "success"
    case .failure: "failure"
    case .usage: "usage"
    case .dataError: "data"
    case .noInput: "noInput"
    case .software: "internal"
    case .cantCreate: "cantCreate"
    case .ioError: "io"
    case .tempFail: "tryAgain"
    }
  }
}
