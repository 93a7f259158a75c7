#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), which no change of
/// the wall clock moves: what deadlines are measured on.
///
///     let deadline = MonotonicInstant.now().advanced(byNanoseconds: 5_000_000_000)
///     if deadline.hasPassed { … }
public struct MonotonicInstant: Sendable, Hashable, Comparable {
  /// Nanoseconds since an unspecified start (the machine's boot).
  public let nanoseconds: UInt64

  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// Now. The corresponding C call is `clock_gettime(CLOCK_MONOTONIC)`.
  public static func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
  }

  /// The instant `count` nanoseconds later (saturating).
  public func advanced(byNanoseconds count: UInt64) -> MonotonicInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(count)
    return MonotonicInstant(nanoseconds: overflow ? .max : sum)
  }

  /// Nanoseconds from now until this instant; 0 once it has passed.
  public var nanosecondsFromNow: UInt64 {
    let now = Self.now().nanoseconds
    return nanoseconds > now ? nanoseconds - now : 0
  }

  /// Whole milliseconds from `earlier` to this instant; 0 when `earlier`
  /// is not earlier. For the timings of reports and the catalog.
  public func milliseconds(since earlier: MonotonicInstant) -> Int64 {
    nanoseconds > earlier.nanoseconds ? Int64((nanoseconds - earlier.nanoseconds) / 1_000_000) : 0
  }

  /// Whether this instant is now or past.
  public var hasPassed: Bool { nanosecondsFromNow == 0 }

  public static func < (left: MonotonicInstant, right: MonotonicInstant) -> Bool {
    left.nanoseconds < right.nanoseconds
  }
}
