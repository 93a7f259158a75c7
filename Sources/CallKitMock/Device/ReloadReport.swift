/// What happened during one reload request.
public struct ReloadReport: Sendable {
  /// The extension's identifier.
  public var identifier: String
  /// `nil` when the request committed; otherwise the error the manager's
  /// `reloadExtension` completion receives.
  public var error: (any Error)?
  /// When the request failed because the simulated device itself could not
  /// read or write its files (or talk to the extension process), what went
  /// wrong; ``error`` is then
  /// ``CXErrorCodeCallDirectoryManagerError/Code/unknown``. Mock only: it
  /// tells a full disk from a request the system refused.
  public var deviceError: SimulatedDeviceError?
  /// When the request committed (``error`` is `nil`, the store holds its
  /// entries and the extension was told so) but the device could not make
  /// the new store durable: the sync of its directory failed, and putting
  /// the old store back failed too (a disk that stays full). Mock only.
  public var durabilityError: SimulatedDeviceError? = nil
  /// Whether the request was applied incrementally (it read `isIncremental`
  /// as `true` before any add or remove).
  public var wasIncremental: Bool
  /// Counts of the calls the extension made.
  public var statistics: RequestStatistics
  /// The first calls the extension made, up to
  /// ``ExtensionSettings/traceLimit``.
  public var trace: [CallDirectoryOperation]
  /// Blocking entries in the store after the request (unchanged on failure).
  public var blockingEntryCount: Int
  /// Identification entries in the store after the request.
  public var identificationEntryCount: Int
  /// The child process's resident set when it started the request, in bytes
  /// (`nil` for in-process hosting).
  public var childBaselineResidentBytes: Int?
  /// The child process's peak resident set (`VmHWM`), in bytes.
  public var childPeakResidentBytes: Int?
  /// Wall-clock duration of the request, in seconds.
  public var duration: Double

  /// Whether the request committed.
  public var isCommitted: Bool { error == nil }
}
