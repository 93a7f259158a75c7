#if canImport(CallKit) && !os(macOS)
  import CallKit
#else
  import CallKitMock
#endif
import CallDirectoryProvider
import Foundation

/// What the sync does after `reloadExtension` failed, decided from the
/// error's domain and code (docs/guides/ios-app.md, "When a reload fails").
public enum ReloadRecovery: Hashable, Sendable {
  /// A passing condition (the extension was interrupted, another load is
  /// running, an unknown or undocumented code such as 102): wait, with
  /// backoff, and reload again.
  case retry
  /// The system or the extension refused the data of this request: when it
  /// was a delta, reset with the full snapshot; a full snapshot refused
  /// this way is not retried.
  case reloadWithFullSnapshot
  /// The extension is off: only the user can turn it on, in Settings.
  case waitForUser
  /// Retrying cannot help (no such extension in the app, a shard over the
  /// system's entry limit): fix the app or the dataset.
  case stop

  /// The recovery for any error `reloadExtension` threw.
  public init(for error: any Error) {
    let bridged = error as NSError
    self.init(domain: bridged.domain, code: bridged.code)
  }

  /// The recovery for an error domain and code.
  ///
  /// Call Directory codes follow ``init(callDirectoryCode:)``; codes of
  /// `CallDirectoryProvider` (what the extension cancelled a request with,
  /// if the system passes it on) follow what the provider saw; any other
  /// domain is retried.
  public init(domain: String, code: Int) {
    switch domain {
    case CXErrorCodeCallDirectoryManagerError.errorDomain:
      self.init(callDirectoryCode: code)
    case CallDirectoryProviderError.errorDomain:
      self.init(providerCode: code)
    default:
      self = .retry
    }
  }

  /// The recovery for a `CXErrorCodeCallDirectoryManagerError` raw code.
  ///
  /// The switch ends in `@unknown default`: the system reports codes its
  /// SDK does not declare (102 is seen in the field), and a switch without
  /// it traps on them.
  public init(callDirectoryCode rawCode: Int) {
    guard let code = CXErrorCodeCallDirectoryManagerError.Code(rawValue: rawCode) else {
      self = .retry  // Not a code this SDK declares (CallKitMock has no case for 102).
      return
    }
    switch code {
    case .unknown, .loadingInterrupted, .currentlyLoading:
      self = .retry
    case .entriesOutOfOrder, .duplicateEntries, .unexpectedIncrementalRemoval:
      self = .reloadWithFullSnapshot
    case .extensionDisabled:
      self = .waitForUser
    case .noExtensionFound, .maximumEntriesExceeded:
      self = .stop
    @unknown default:
      self = .retry
    }
  }

  /// The recovery for a ``CallDirectoryProviderError/errorCode``.
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

/// How often and how long the sync waits before reloading an extension
/// again after a ``ReloadRecovery/retry`` failure: exponential backoff,
/// capped, with a bounded number of attempts per sync. After the last
/// attempt the sync fails and the next one (the app's next launch or
/// background refresh) starts over.
public struct ReloadRetryPolicy: Hashable, Sendable {
  /// Reloads per extension and sync, the first included (default 4).
  public var maximumAttempts: Int
  /// The wait after the first failure, in seconds (default 2).
  public var initialDelay: Double
  /// The longest wait, in seconds (default 60).
  public var maximumDelay: Double

  /// A policy.
  public init(maximumAttempts: Int = 4, initialDelay: Double = 2, maximumDelay: Double = 60) {
    self.maximumAttempts = max(1, maximumAttempts)
    self.initialDelay = max(0, initialDelay)
    self.maximumDelay = max(self.initialDelay, maximumDelay)
  }

  /// The wait after failed attempt `attempt` (1, 2, …), in nanoseconds:
  /// `initialDelay · 2^(attempt-1)`, at most `maximumDelay`.
  public func delayNanoseconds(afterAttempt attempt: Int) -> UInt64 {
    let exponent = Double(min(max(attempt - 1, 0), 30))
    let seconds = min(maximumDelay, initialDelay * pow(2, exponent))
    return UInt64(seconds * 1_000_000_000)
  }
}
