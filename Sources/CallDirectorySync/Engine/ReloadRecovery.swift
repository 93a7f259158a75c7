/// What the sync engine (``SyncCoordinator``) does after a reload failed,
/// decided from the error's domain and code (docs/guides/ios-app.md,
/// "When a reload fails"): a ``SyncReloader`` says it for each failure
/// (``SyncReloader/recovery(after:)``), the engine acts on it.
public enum ReloadRecovery: Hashable, Sendable {
  /// A passing condition (the extension was interrupted, another load is
  /// running, an unknown or undocumented code such as 102): wait, with
  /// backoff (``ReloadRetryPolicy``), and reload again.
  case retry
  /// The system or the extension refused the data of this request, or it
  /// served a complete request instead of the delta: when it was a delta,
  /// reset with the full snapshot; a full snapshot refused this way is
  /// not retried.
  case reloadWithFullSnapshot
  /// The extension is off: only the user can turn it on, in Settings.
  case waitForUser
  /// Retrying cannot help (no such extension in the app, a shard over the
  /// system's entry limit): fix the app or the dataset.
  case stop

  /// The error domain of `CXErrorCodeCallDirectoryManagerError`.
  public static let callDirectoryErrorDomain = "com.apple.CallKit.error.calldirectorymanager"
  /// The error domain of `CallDirectoryProviderError` (what the extension
  /// cancels a request with, when the system passes it on).
  public static let providerErrorDomain = "CallDirectoryProvider"

  /// The recovery for an error domain and code.
  ///
  /// Call Directory codes follow ``init(callDirectoryCode:)``; codes of
  /// `CallDirectoryProvider` follow ``init(providerCode:)``; any other
  /// domain is retried.
  public init(domain: String, code: Int) {
    switch domain {
    case Self.callDirectoryErrorDomain: self.init(callDirectoryCode: code)
    case Self.providerErrorDomain: self.init(providerCode: code)
    default: self = .retry
    }
  }

  /// The recovery for a `CXErrorCodeCallDirectoryManagerError` raw code
  /// (/work/shared/reference/call-directory.md: 0 unknown, 1
  /// noExtensionFound, 2 loadingInterrupted, 3 entriesOutOfOrder, 4
  /// duplicateEntries, 5 maximumEntriesExceeded, 6 extensionDisabled, 7
  /// currentlyLoading, 8 unexpectedIncrementalRemoval). The system reports
  /// codes its SDK does not declare (102 is seen in the field, 11 with a
  /// corrupted CallDirectory.db): they are retried.
  public init(callDirectoryCode code: Int) {
    switch code {
    case 0, 2, 7: self = .retry
    case 3, 4, 8: self = .reloadWithFullSnapshot
    case 6: self = .waitForUser
    case 1, 5: self = .stop
    default: self = .retry
    }
  }

  /// The recovery for a `CallDirectoryProviderError.errorCode`.
  public init(providerCode code: Int) {
    switch code {
    case 1, 2, 3, 4:  // no usable blob, unreadable, corrupt, digest mismatch: fetch the full snapshot again
      self = .reloadWithFullSnapshot
    case 9:  // the extension holds a newer version than the data offered
      self = .stop
    default:  // the blob changed meanwhile, or the container's I/O failed
      self = .retry
    }
  }
}

/// How often and how long the sync engine waits before reloading an
/// extension again after a ``ReloadRecovery/retry`` failure: exponential
/// backoff, capped, with a bounded number of attempts per extension and
/// sync. After the last attempt the sync fails and the next one (the
/// app's next launch or background refresh) starts over.
public struct ReloadRetryPolicy: Hashable, Sendable {
  /// Reloads per extension and sync, the first included (default 4).
  public var maximumAttempts: Int
  /// The wait after the first failure, in seconds (default 2).
  public var initialDelay: Double
  /// The longest wait, in seconds (default 60).
  public var maximumDelay: Double

  /// No retry at all: a failed reload stops the sync (`calldir device
  /// sync`, whose simulated device reports no passing failures).
  public static let none = ReloadRetryPolicy(maximumAttempts: 1)

  /// A policy.
  public init(maximumAttempts: Int = 4, initialDelay: Double = 2, maximumDelay: Double = 60) {
    self.maximumAttempts = max(1, maximumAttempts)
    self.initialDelay = max(0, initialDelay)
    self.maximumDelay = max(self.initialDelay, maximumDelay)
  }

  /// The wait after failed attempt `attempt` (1, 2, …), in nanoseconds:
  /// `initialDelay · 2^(attempt-1)`, at most `maximumDelay`.
  public func delayNanoseconds(afterAttempt attempt: Int) -> UInt64 {
    var seconds = initialDelay
    for _ in 0..<min(max(attempt - 1, 0), 30) where seconds < maximumDelay {
      seconds *= 2
    }
    return UInt64(min(maximumDelay, seconds) * 1_000_000_000)
  }
}
