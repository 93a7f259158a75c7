/// Limits and policies the simulated system applies to one extension.
///
/// Apple documents none of these numbers; the defaults follow what developers
/// observed (see `call-directory.md` §2) and every one can be changed per
/// extension with ``SimulatedDevice/updateSettings(_:forExtensionWithIdentifier:)``.
public struct ExtensionSettings: Hashable, Sendable {
  /// The "maximum allowed entries" of the store, blocking and
  /// identification entries counted together: a request whose store would
  /// reach it fails with `maximumEntriesExceeded`, so the store holds fewer.
  /// Default 2,000,000: iOS refused a load at 1,990,000 accepted entries
  /// with "cannot add entries since it would exceed maximum allowed
  /// entries (2000000)", and 1,800,000 per extension loaded
  /// (`call-directory.md` §2).
  public var maximumEntryCount: Int

  /// How much memory a child extension process may add on top of its
  /// footprint when the request began, in bytes (default 32 MiB). Measured as
  /// the peak resident set (`VmHWM`) and enforced only for
  /// ``ExtensionLaunch/childProcess(executablePath:arguments:)``.
  public var memoryBudgetBytes: Int

  /// How long a request may run before the system interrupts it, in seconds
  /// (default 120).
  public var requestTimeout: Double

  /// What an incremental add of a number already in the store does
  /// (default ``IncrementalReAddPolicy/reject``).
  public var incrementalReAddPolicy: IncrementalReAddPolicy

  /// How many operations ``ReloadReport/trace`` keeps (default 1,000).
  public var traceLimit: Int

  /// Creates settings; every parameter has the documented default.
  public init(
    maximumEntryCount: Int = 2_000_000,
    memoryBudgetBytes: Int = 32 << 20,
    requestTimeout: Double = 120,
    incrementalReAddPolicy: IncrementalReAddPolicy = .reject,
    traceLimit: Int = 1_000
  ) {
    self.maximumEntryCount = maximumEntryCount
    self.memoryBudgetBytes = memoryBudgetBytes
    self.requestTimeout = requestTimeout
    self.incrementalReAddPolicy = incrementalReAddPolicy
    self.traceLimit = traceLimit
  }

  /// Throws when a value is out of range.
  func validate() throws(SimulatedDeviceError) {
    guard maximumEntryCount >= 0 else {
      throw .invalidSettings("maximum entry count must not be negative")
    }
    guard memoryBudgetBytes > 0 else {
      throw .invalidSettings("memory budget must be positive")
    }
    guard requestTimeout > 0, requestTimeout.isFinite else {
      throw .invalidSettings("request timeout must be a positive number of seconds")
    }
    guard traceLimit >= 0 else {
      throw .invalidSettings("trace limit must not be negative")
    }
  }
}
