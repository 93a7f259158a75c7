import CalldirSystem
import CallDirectoryStore
import CommandLineKit

/// A failed build: its exit code, and a `--json` error whose `kind` names
/// the failure (``BuildError/kind``), with the source at fault and, for a
/// refusal, every failing guard and the kept reports.
extension BuildError: CommandLineError {
  public var exitCode: ExitCode {
    switch self {
    case .config(let error): error.exitCode
    case .compile(let error):
      switch error {
      case .config(let error): error.exitCode
      case .source(.file(let error)): error.readingExitCode
      case .source, .unknownRegion, .wrongRegion: .dataError
      case .report(let error): error.writingExitCode
      case .spill: .ioError
      }
    case .store(let error): error.exitCode
    case .signingKey(.unreadable(let error)): error.readingExitCode
    case .signingKey(.notASecretKey), .signingKey(.mismatchedPublicKey): .dataError
    case .blob(_, let error): error.exitCode
    case .refused: .dataError
    case .dateOutOfRange: .usage
    }
  }

  /// Every failing guard's message, one per `error:` line, for a refusal.
  public var message: String { description }

  /// `{"error": {"kind", "message", "source"}}`, `source` when one is at
  /// fault; for a refusal, `error` is the first failing guard's, followed
  /// by `refusals` (every failing guard), `rejects` and `conflicts` (the
  /// kept reports).
  public var jsonEnvelope: JSONValue {
    var error: [(key: String, value: JSONValue)] = [("kind", .string(kind))]
    if case .refused(let refusals, _, _) = self, let first = refusals.first {
      error.append(("message", .string(first.message)))
    } else {
      error.append(("message", .string(description)))
    }
    if let source { error.append(("source", .string(source))) }
    guard case .refused(let refusals, let rejects, let conflicts) = self else {
      return .object([("error", .object(error))])
    }
    return .object([
      ("error", .object(error)),
      ("refusals", .array(refusals.map { Self.refusalJSON($0) })),
      ("rejects", rejects.map { .string($0) } ?? .null),
      ("conflicts", conflicts.map { .string($0) } ?? .null),
    ])
  }

  /// `{"kind", "message", "source"}` of one refusal (also the `error` of a
  /// forced or dry-run build's summary).
  static func refusalJSON(_ refusal: BuildRefusal) -> JSONValue {
    var fields: [(key: String, value: JSONValue)] = [
      ("kind", .string(refusal.kind.rawValue)), ("message", .string(refusal.message)),
    ]
    if let source = refusal.source { fields.append(("source", .string(source))) }
    return .object(fields)
  }
}
