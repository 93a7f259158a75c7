import CallDirectoryProvider
import CallDirectorySync
import Foundation

/// The files the app and its Call Directory extensions share in the App
/// Group container:
///
///     CallDirectory/sync-state.json                      the app's SyncState, written last
///     CallDirectory/Sync/                                the engine's: staging/ (verified downloads),
///                                                        lock, rollback-floor.json, Downloads/
///     CallDirectory/Extension-<i>/Data/full-000042.cdir   the full snapshot a complete request loads
///     CallDirectory/Extension-<i>/Data/delta-000041-000042.cdir   the delta being applied (at most one)
///     CallDirectory/Extension-<i>/state.json              what extension i holds (written by the extension)
///     CallDirectory/Extension-<i>/Incoming/               downloads, checked here, then renamed into Data/
///
/// Extension `i` is the manifest's `extensions[i - 1]` (its `index` is `i`).
/// Only the app writes `Data/` and `Incoming/`; the extension only reads
/// `Data/` and writes its `state.json`.
public struct AppGroupStorage: Sendable, Hashable {
  /// The App Group container directory.
  public var containerURL: URL

  /// Storage in `containerURL`.
  public init(containerURL: URL) {
    self.containerURL = containerURL
  }

  #if canImport(Darwin)
    /// Storage in the App Group container, or `nil` when the app does not
    /// have that App Group (the App Groups capability is missing).
    public init?(appGroupIdentifier: String) {
      guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupIdentifier)
      else { return nil }
      self.init(containerURL: url)
    }
  #endif

  /// Where extension `index` reads its blobs and keeps its state; the same
  /// paths the extension computes (``ProviderLayout/init(containerPath:extensionIndex:)``).
  public func layout(forExtension index: Int) -> ProviderLayout {
    ProviderLayout(containerPath: containerURL.path, extensionIndex: index)
  }

  /// The directory downloads for extension `index` go to before they are checked.
  public func incomingDirectory(forExtension index: Int) -> URL {
    URL(fileURLWithPath: layout(forExtension: index).dataDirectory, isDirectory: true)
      .deletingLastPathComponent().appendingPathComponent("Incoming", isDirectory: true)
  }

  /// The sync engine's directory (``SyncDirectory``): its staged files,
  /// lock and rollback floor, with the state at ``syncStateURL``.
  public var syncDirectory: SyncDirectory {
    SyncDirectory(
      path: containerURL.appendingPathComponent("CallDirectory/Sync").path, statePath: syncStateURL.path)
  }

  /// The app's record of the last complete sync.
  public var syncStateURL: URL {
    containerURL.appendingPathComponent("CallDirectory/sync-state.json")
  }
}
