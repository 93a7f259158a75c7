import CalldirSystem

/// How long a sync may wait on its source: a server that stops sending,
/// or sends too slowly to matter, never holds a device for long.
///
/// A transfer fails when it takes ``stallSeconds`` to connect, or moves
/// less than ``minimumRate`` bytes a second over ``stallSeconds`` seconds
/// (a host that drips a few bytes a second). Every transfer also has a
/// deadline (``TransferBounds``), from the sizes it may move: each file is
/// allowed ``stallSeconds`` plus its size at ``minimumRate``
/// (``allowance(bytes:transfers:)``), and a sync's downloads share the sum
/// of their files' allowances, so the whole sync ends within a time the
/// manifest's sizes bound, however the server paces its bytes.
public struct TransferLimits: Sendable, Hashable {
  /// Seconds to connect, and the window over which a transfer must keep
  /// ``minimumRate``.
  public var stallSeconds: Int
  /// The slowest rate a transfer may keep, in bytes a second.
  public var minimumRate: Int

  /// The default: 30 seconds, 1 KiB a second.
  public static let standard = TransferLimits(stallSeconds: 30, minimumRate: 1024)

  /// - Parameters:
  ///   - stallSeconds: At least 1.
  ///   - minimumRate: At least 1 byte a second.
  public init(stallSeconds: Int, minimumRate: Int) {
    self.stallSeconds = max(1, stallSeconds)
    self.minimumRate = max(1, minimumRate)
  }

  /// The time allowed to move `bytes` in `transfers` requests, in
  /// nanoseconds: ``stallSeconds`` per request plus the bytes at
  /// ``minimumRate``.
  public func allowance(bytes: Int64, transfers: Int) -> UInt64 {
    let perRequest = UInt64(stallSeconds).multipliedReportingOverflow(by: UInt64(max(0, transfers)))
    let sending = (Double(max(0, bytes)) / Double(minimumRate) * 1e9).rounded(.up)
    let total = Double(perRequest.overflow ? .max : perRequest.partialValue) * 1e9 + sending
    return total >= Double(UInt64.max) ? .max : UInt64(total)
  }

  /// The bounds of transfers that start now and may move `bytes` in
  /// `transfers` requests.
  public func bounds(bytes: Int64, transfers: Int) -> TransferBounds {
    TransferBounds(limits: self, deadline: MonotonicInstant.now().advanced(byNanoseconds: allowance(bytes: bytes, transfers: transfers)))
  }
}

/// What one call of a ``SyncSource`` must keep to: the ``TransferLimits``
/// and the ``deadline`` by which it returns, whatever the server does.
public struct TransferBounds: Sendable, Hashable {
  public var limits: TransferLimits
  /// When the transfer must have ended (on the monotonic clock).
  public var deadline: MonotonicInstant

  public init(limits: TransferLimits, deadline: MonotonicInstant) {
    self.limits = limits
    self.deadline = deadline
  }

  /// Milliseconds left before the deadline, at least 1 (a transfer asked
  /// for after its deadline fails at once).
  public var remainingMilliseconds: Int64 {
    max(1, Int64(clamping: deadline.nanosecondsFromNow / 1_000_000))
  }

  /// Whether the deadline has passed.
  public var hasExpired: Bool { deadline.hasPassed }

  /// Why a transfer that ran past the deadline failed, for messages.
  public var expiryReason: String {
    "the sync's deadline passed (it allows \(limits.stallSeconds) seconds per file plus its size at "
      + "\(limits.minimumRate) bytes a second)"
  }
}
