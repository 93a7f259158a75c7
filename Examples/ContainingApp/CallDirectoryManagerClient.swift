#if canImport(CallKit) && !os(macOS)
  import CallKit
#else
  import CallKitMock
#endif

/// The three `CXCallDirectoryManager` calls the app makes, behind a
/// `Sendable` value the sync can hold.
///
/// On iOS it talks to `CXCallDirectoryManager.sharedInstance`, fetched at
/// each call (so no non-`Sendable` manager is kept across tasks); elsewhere
/// to a CallKitMock manager over a simulated device.
public struct CallDirectoryManagerClient: Sendable {
  #if canImport(CallKit) && !os(macOS)
    /// The client of the system's manager.
    public init() {}

    private var manager: CXCallDirectoryManager { .sharedInstance }
  #else
    private let manager: CXCallDirectoryManager

    /// The client of a simulated device's manager.
    public init(manager: CXCallDirectoryManager) {
      self.manager = manager
    }
  #endif

  /// Asks the system to load the extension's entries now: it launches the
  /// extension, whose `beginRequest(with:)` runs, and returns once the
  /// request was committed.
  ///
  /// - Throws: A `CXErrorCodeCallDirectoryManagerError` (see
  ///   ``ReloadRecovery``), or what the extension cancelled the request with.
  public func reloadExtension(withIdentifier identifier: String) async throws {
    try await manager.reloadExtension(withIdentifier: identifier)
  }

  /// Whether the user turned the extension on in Settings.
  public func enabledStatusForExtension(withIdentifier identifier: String) async throws
    -> CXCallDirectoryManager.EnabledStatus
  {
    try await manager.enabledStatusForExtension(withIdentifier: identifier)
  }

  /// Opens Settings at Call Blocking & Identification (iOS 13.4), where the
  /// user turns the app's extensions on.
  public func openSettings() async throws {
    try await manager.openSettings()
  }
}

extension CallDirectoryManagerClient {
  /// The extensions among `identifiers` the user has not turned on, for
  /// the app to say so ("Turn on all of them in Settings › Phone › Call
  /// Blocking & Identification") next to a button that calls
  /// ``openSettings()``. An extension whose status cannot be read counts as
  /// on: the reload will tell.
  public func extensionsTurnedOff(among identifiers: [String]) async -> [String] {
    var off: [String] = []
    for identifier in identifiers {
      if (try? await enabledStatusForExtension(withIdentifier: identifier)) == .disabled {
        off.append(identifier)
      }
    }
    return off
  }
}
