import CallDirectoryFormat

/// Counts violations and passes the first `limit` of them to the handler.
///
/// Messages are built only for reported violations, so an input with
/// millions of problems costs little more than a valid one.
final class _ViolationLog {
  private let limit: UInt64
  private let handler: (Violation) -> Void
  private(set) var errors: UInt64 = 0
  private(set) var warnings: UInt64 = 0
  private(set) var reported: UInt64 = 0

  init(limit: Int?, handler: @escaping (Violation) -> Void) {
    self.limit = limit.map { UInt64(max(0, $0)) } ?? .max
    self.handler = handler
  }

  /// How many more violations the handler will be passed.
  var reportsLeft: UInt64 { limit - reported }

  /// Counts `times` violations of `kind` without reporting them (the rest
  /// of a run whose first entries were reported).
  func count(_ kind: ViolationKind, times: UInt64) {
    switch kind.severity {
    case .error: errors += times
    case .warning: warnings += times
    }
  }

  func record(
    _ kind: ViolationKind, at location: ViolationLocation, list: BlobSection?,
    number: Int64? = nil, previous: Int64? = nil, message: () -> String
  ) {
    switch kind.severity {
    case .error: errors += 1
    case .warning: warnings += 1
    }
    guard reported < limit else { return }
    reported += 1
    handler(Violation(
      kind: kind, location: location, list: list, number: number, previous: previous, message: message()))
  }
}

@available(*, unavailable)
extension _ViolationLog: Sendable {}
