import Foundation

/// The app-side API of Call Directory, mirroring CallKit's
/// `CXCallDirectoryManager`, over a ``SimulatedDevice``.
///
/// There is no `sharedInstance`: create a manager over the device directory.
/// **Completion handlers are called synchronously**, on the calling thread,
/// before the method returns (a reload blocks until the request ends). The
/// `async` forms run the work on a global dispatch queue.
public final class CXCallDirectoryManager: Sendable {
  /// The status of a Call Directory extension, with CallKit's raw values.
  public enum EnabledStatus: Int, Sendable, CaseIterable {
    /// The status could not be determined (for example, no such extension).
    case unknown = 0
    /// The extension is installed but disabled.
    case disabled = 1
    /// The extension is enabled.
    case enabled = 2
  }

  /// The simulated device the manager talks to.
  public let device: SimulatedDevice

  /// Creates a manager over a simulated device.
  public init(device: SimulatedDevice) {
    self.device = device
  }

  /// Loads the extension's entries: launches its provider, validates the
  /// request and commits it atomically.
  ///
  /// - Parameters:
  ///   - identifier: The extension's identifier.
  ///   - completion: Called synchronously with `nil` on success, or the
  ///     error (see ``SimulatedDevice/reloadExtension(withIdentifier:)``).
  public func reloadExtension(withIdentifier identifier: String, completionHandler completion: ((Error?) -> Void)? = nil) {
    let report = device.reloadExtension(withIdentifier: identifier)
    completion?(report.error)
  }

  /// Loads the extension's entries, throwing the request's error.
  public func reloadExtension(withIdentifier identifier: String) async throws {
    let report = await reloadExtensionReporting(withIdentifier: identifier)
    if let error = report.error { throw error }
  }

  /// Loads the extension's entries synchronously, throwing the request's
  /// error (a convenience for tests and the CLI).
  public func reloadExtensionSynchronously(withIdentifier identifier: String) throws {
    if let error = device.reloadExtension(withIdentifier: identifier).error { throw error }
  }

  /// Loads the extension's entries and returns the full report.
  public func reloadExtensionReporting(withIdentifier identifier: String) async -> ReloadReport {
    let device = self.device
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: device.reloadExtension(withIdentifier: identifier))
      }
    }
  }

  /// Reports whether the extension is enabled.
  ///
  /// - Parameters:
  ///   - identifier: The extension's identifier.
  ///   - completion: Called synchronously; an unknown identifier gives
  ///     ``EnabledStatus/unknown`` and
  ///     ``CXErrorCodeCallDirectoryManagerError/Code/noExtensionFound``.
  public func getEnabledStatusForExtension(
    withIdentifier identifier: String,
    completionHandler completion: @escaping (EnabledStatus, Error?) -> Void
  ) {
    switch enabledStatusResult(identifier) {
    case .success(let status): completion(status, nil)
    case .failure(let error): completion(.unknown, error)
    }
  }

  /// Reports whether the extension is enabled, throwing for an unknown one.
  public func enabledStatusForExtension(withIdentifier identifier: String) async throws -> EnabledStatus {
    try enabledStatusResult(identifier).get()
  }

  /// Simulates opening the Settings app at the Call Directory page: the
  /// device records the call (see ``SimulatedDevice/settingsOpenedCount()``).
  ///
  /// - Parameter completion: Called synchronously with `nil`, or an
  ///   ``CXErrorCodeCallDirectoryManagerError/Code/unknown`` error when the
  ///   device could not record it.
  public func openSettings(completionHandler completion: ((Error?) -> Void)? = nil) {
    do {
      try device.recordSettingsOpened()
      completion?(nil)
    } catch {
      completion?(CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description))
    }
  }

  /// Simulates opening the Settings app at the Call Directory page.
  public func openSettings() async throws {
    var failure: (any Error)?
    openSettings { failure = $0 }
    if let failure { throw failure }
  }

  private func enabledStatusResult(_ identifier: String) -> Result<EnabledStatus, CXErrorCodeCallDirectoryManagerError> {
    do {
      return .success(try device.record(identifier).isEnabled ? .enabled : .disabled)
    } catch .noSuchExtension {
      return .failure(CXErrorCodeCallDirectoryManagerError(
        .noExtensionFound, reason: "no extension '\(identifier)' is installed"))
    } catch {
      return .failure(CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description))
    }
  }
}
