import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import CallKitMock

/// The simulated device as `calldir device sync`'s engine
/// (``SyncCoordinator``) sees it: its calldir extensions' provider states,
/// reservations and loads through ``DeviceLoader``, as `device load` runs
/// them.
public struct DeviceSyncReloader: SyncReloader {
  /// How the device's extensions are loaded.
  public let loader: DeviceLoader
  /// Told of each request the system failed, before the load throws
  /// (the identifier and the request's error): what the CLI prints.
  public let requestFailed: (_ identifier: String, _ error: any Error) -> Void

  public init(loader: DeviceLoader, requestFailed: @escaping (_ identifier: String, _ error: any Error) -> Void = { _, _ in }) {
    self.loader = loader
    self.requestFailed = requestFailed
  }

  /// The snapshot each installed calldir extension holds by its provider's
  /// state (version and content digest), by index. When its last
  /// request's outcome is unknown, the version it held before with no
  /// digest: it is never judged unchanged, the delta from that version is
  /// planned and its provider refuses it, so the sync loads the full
  /// snapshot and says why; nil when it held nothing.
  public func heldSnapshots() throws(DeviceLoadError) -> [Int: HeldSnapshot?] {
    let identifiers: [String]
    do {
      identifiers = try loader.device.installedExtensionIdentifiers()
    } catch {
      throw .device(error)
    }
    var held: [Int: HeldSnapshot?] = [:]
    for identifier in identifiers {
      guard let index = CalldirExtensions.index(of: identifier) else { continue }
      let state = try DeviceLoader.providerState(in: try DeviceLoader.layout(loader.device, identifier), identifier)
      if let snapshot = state.heldSnapshot {
        held[index] = HeldSnapshot(version: Int(clamping: snapshot.version), digest: snapshot.digest.hex)
      } else {
        let before = state.loaded.map { HeldSnapshot(version: Int(clamping: $0.version), digest: nil) }
        held.updateValue(before, forKey: index)
      }
    }
    return held
  }

  public func reserve(extension index: Int) throws(DeviceLoadError) -> ExtensionReservation {
    try loader.reserve(extension: index)
  }

  public func release(_ reservation: ExtensionReservation) {
    reservation.release()
  }

  public func planLoad(ofBlobAt path: String, intoExtension index: Int) throws(DeviceLoadError) -> ExtensionLoad {
    try loader.plan(try DeviceLoader.candidate(path), forExtension: index)
  }

  public func unfitReason(_ failure: DeviceLoadError) -> String? {
    if case .doesNotFit(_, _, let problem) = failure { problem.description } else { nil }
  }

  public func load(_ load: ExtensionLoad, intoExtension index: Int, under reservation: ExtensionReservation)
    throws(DeviceLoadError) -> ExtensionLoadResult
  {
    let result = try loader.load(load, under: reservation)
    if let error = result.report.error { requestFailed(load.identifier, error) }
    if let failure = result.failure { throw failure }
    return result
  }

  public func recordSameContent(
    extension index: Int, version: Int, digest: String, under reservation: ExtensionReservation
  ) throws(DeviceLoadError) -> Bool {
    guard let digest = ContentDigest(hex: digest) else { return false }
    let target = SnapshotIdentity(version: UInt64(version), digest: digest)
    return try loader.recordSameContent(extension: index, as: target, under: reservation) != nil
  }
}
