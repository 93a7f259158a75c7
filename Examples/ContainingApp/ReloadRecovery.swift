import CallDirectorySync
import Foundation

// ReloadRecovery and ReloadRetryPolicy are CallDirectorySync's: the sync
// engine retries and falls back to full snapshots by them
// (docs/guides/ios-app.md, "When a reload fails").

extension ReloadRecovery {
  /// The recovery for any error `reloadExtension` threw, by its domain and
  /// code as it bridges to `NSError` (CallKit's and CallKitMock's errors,
  /// `CallDirectoryProviderError`).
  public init(for error: any Error) {
    let bridged = error as NSError
    self.init(domain: bridged.domain, code: bridged.code)
  }
}
