import CallDirectoryProvider
import CallKitMock
import CalldirSystem

/// Loads blobs into a simulated device's calldir extensions as iOS would:
/// what `calldir device load` and `calldir device sync` share.
///
/// For each extension: reserve it (``reserve(extension:)``), so that no
/// other load mixes its data in; plan its request exactly as its provider
/// will (``plan(_:forExtension:)``), refusing a blob that does not fit
/// before anything changes; then install or reconfigure it, make the blob
/// the only data of its app-group container, run the request in the
/// extension process and record its outcome in the provider's state
/// (``load(_:under:)``).
///
///     let loader = DeviceLoader(device: device, launch: launch, settings: settings)
///     let reservation = try loader.reserve(extension: 1)
///     let planned = try loader.plan(try DeviceLoader.candidate(path), forExtension: 1)
///     let result = try loader.load(planned, under: reservation)
public struct DeviceLoader: Sendable {
  /// The device.
  public let device: SimulatedDevice
  /// How the extensions' providers run.
  public let launch: ExtensionLaunch
  /// The extensions' limits.
  public let settings: ExtensionSettings
  /// Whether a blob older than the held version may be loaded.
  public let allowsDowngrade: Bool

  public init(device: SimulatedDevice, launch: ExtensionLaunch, settings: ExtensionSettings, allowsDowngrade: Bool = false) {
    self.device = device
    self.launch = launch
    self.settings = settings
    self.allowsDowngrade = allowsDowngrade
  }

  /// Reads and validates a blob's header.
  ///
  /// - Throws: ``DeviceLoadError/unreadableBlob(path:_:)``.
  public static func candidate(_ path: String) throws(DeviceLoadError) -> BlobCandidate {
    do {
      return try BlobCandidate(path: path)
    } catch {
      throw .unreadableBlob(path: path, error)
    }
  }

  /// Reserves extension `index` for the caller until the reservation is
  /// released (see ``ExtensionReservation``).
  ///
  /// - Throws: ``DeviceLoadError/currentlyLoading(identifier:)`` when
  ///   another load holds it, ``DeviceLoadError/device(_:)``.
  public func reserve(extension index: Int) throws(DeviceLoadError) -> ExtensionReservation {
    let identifier = CalldirExtensions.identifier(ofExtension: index)
    do {
      return try device.reserveExtension(withIdentifier: identifier)
    } catch .extensionBusy {
      throw .currentlyLoading(identifier: identifier)
    } catch {
      throw .device(error)
    }
  }

  /// Plans extension `index`'s request for `candidate` exactly as its
  /// provider will. The caller holds the extension's reservation.
  ///
  /// - Throws: ``DeviceLoadError/downgrade(extension:held:offered:)``,
  ///   ``DeviceLoadError/doesNotFit(identifier:path:_:)``,
  ///   ``DeviceLoadError/providerStorage(identifier:_:)``,
  ///   ``DeviceLoadError/device(_:)``.
  public func plan(_ candidate: BlobCandidate, forExtension index: Int) throws(DeviceLoadError) -> ExtensionLoad {
    let identifier = CalldirExtensions.identifier(ofExtension: index)
    let status: ExtensionStatus?
    do {
      status = try device.status(forExtensionWithIdentifier: identifier)
    } catch .noSuchExtension {
      status = nil
    } catch {
      throw .device(error)
    }
    var layout: ProviderLayout?
    var state = ProviderState()
    if status != nil {
      let installed = try Self.layout(device, identifier)
      state = try Self.providerState(in: installed, identifier)
      layout = installed
    }
    do {
      let plan = try LoadPlanner.plan(
        isIncremental: status?.hasStore ?? false, state: state, candidates: [candidate],
        allowsDowngrade: allowsDowngrade)
      return ExtensionLoad(
        index: index, identifier: identifier, candidate: candidate, plan: plan, status: status, previous: state,
        layout: layout)
    } catch .downgrade(let held, let offered) {
      throw .downgrade(extension: index, held: held, offered: offered)
    } catch {
      throw .doesNotFit(identifier: identifier, path: candidate.path, error)
    }
  }

  /// Runs a planned load under the extension's reservation: installs or
  /// reconfigures the extension, makes the blob its only data, reloads it
  /// and records the outcome in the provider's state.
  ///
  /// - Returns: The request's result; its ``ExtensionLoadResult/failure``
  ///   says why the extension does not hold the plan's target.
  /// - Throws: ``DeviceLoadError/device(_:)`` or
  ///   ``DeviceLoadError/providerStorage(identifier:_:)`` when the
  ///   extension could not be prepared (no request ran).
  public func load(_ load: ExtensionLoad, under reservation: ExtensionReservation) throws(DeviceLoadError)
    -> ExtensionLoadResult
  {
    let layout = try prepare(load)
    let report = reservation.reloadExtension()
    Self.settleData(of: layout, committed: report.isCommitted)
    let store = ProviderStateStore(path: layout.statePath)
    let state: ProviderState
    var failure: DeviceLoadError?
    do {
      state = try store.recordReloadOutcome(of: load.plan, previous: load.previous, committed: report.isCommitted)
    } catch {
      state = report.isCommitted ? ProviderState(loaded: load.plan.target) : load.previous
      failure = .providerStorage(identifier: load.identifier, error)
    }
    if let error = report.error {
      failure = .requestFailed(identifier: load.identifier, error, deviceError: report.deviceError)
    } else if let notDurable = report.durabilityError {
      failure = .notDurable(identifier: load.identifier, notDurable)
    }
    return ExtensionLoadResult(load: load, report: report, state: state, failure: failure)
  }

  /// Records that extension `index` holds `target` without a reload: a
  /// sync's extension whose content the new version left as it was
  /// (``ProviderStateStore/recordSameContent(as:)``). No request runs and
  /// its entries, data and reload count stay as they are; only its
  /// provider state takes `target`'s version. The caller holds the
  /// extension's reservation.
  ///
  /// - Returns: The provider state now recorded; nil when the extension
  ///   is not installed or does not hold `target`'s content (it changed
  ///   since the sync planned: plan again).
  /// - Throws: ``DeviceLoadError/providerStorage(identifier:_:)``,
  ///   ``DeviceLoadError/device(_:)``.
  public func recordSameContent(
    extension index: Int, as target: SnapshotIdentity, under reservation: ExtensionReservation
  ) throws(DeviceLoadError) -> ProviderState? {
    let identifier = CalldirExtensions.identifier(ofExtension: index)
    // Another extension's reservation does not keep this one's requests out.
    guard reservation.identifier == identifier else { throw .currentlyLoading(identifier: identifier) }
    do {
      _ = try device.status(forExtensionWithIdentifier: identifier)
    } catch .noSuchExtension {
      return nil
    } catch {
      throw .device(error)
    }
    let layout = try Self.layout(device, identifier)
    do {
      return try ProviderStateStore(path: layout.statePath).recordSameContent(as: target)
    } catch {
      throw .providerStorage(identifier: identifier, error)
    }
  }

  /// Installs or reconfigures the extension and makes the blob its only data.
  ///
  /// - Returns: Where the extension's provider keeps its blobs and state.
  private func prepare(_ load: ExtensionLoad) throws(DeviceLoadError) -> ProviderLayout {
    do throws(SimulatedDeviceError) {
      if let status = load.status {
        if status.launch != launch { try device.updateLaunch(launch, forExtensionWithIdentifier: load.identifier) }
        if status.settings != settings { try device.updateSettings(settings, forExtensionWithIdentifier: load.identifier) }
      } else {
        try device.installExtension(withIdentifier: load.identifier, launch: launch, settings: settings)
      }
    } catch {
      throw .device(error)
    }
    let layout: ProviderLayout
    if let known = load.layout {
      layout = known
    } else {
      layout = try Self.layout(device, load.identifier)
    }
    do {
      try Self.keepData(of: layout)
    } catch {
      throw .providerStorage(
        identifier: load.identifier, .dataWriteFailed(path: layout.dataDirectory, reason: error.description))
    }
    do {
      try layout.replaceData(withBlobAt: load.file)
    } catch {
      Self.settleData(of: layout, committed: false)
      throw .providerStorage(identifier: load.identifier, error)
    }
    return layout
  }

  // MARK: - The data a load replaces

  /// Where the provider's data waits while a load's request runs: put back
  /// if the request fails (a CallKit error leaves the device as it was),
  /// removed once it commits.
  static func keptDataDirectory(_ layout: ProviderLayout) -> String { layout.dataDirectory + ".before-load" }

  /// Moves the provider's data aside before the blob is placed. A kept
  /// copy found there is a load's that died: it goes back when the data
  /// itself is gone (the load died before placing the blob), and is
  /// dropped otherwise (the provider's state, pending, then takes only a
  /// full snapshot).
  private static func keepData(of layout: ProviderLayout) throws(FileError) {
    let kept = keptDataDirectory(layout)
    if FileSystem.exists(kept) {
      if FileSystem.exists(layout.dataDirectory) {
        try FileSystem.removeTree(kept)
      } else {
        try FileSystem.durableRename(kept, to: layout.dataDirectory)
      }
    }
    if FileSystem.exists(layout.dataDirectory) { try FileSystem.durableRename(layout.dataDirectory, to: kept) }
  }

  /// Drops the kept data once the request committed; otherwise puts it
  /// back in place of the blob the failed request was given.
  private static func settleData(of layout: ProviderLayout, committed: Bool) {
    let kept = keptDataDirectory(layout)
    guard FileSystem.exists(kept) else { return }
    if committed {
      try? FileSystem.removeTree(kept)
    } else {
      try? FileSystem.removeTree(layout.dataDirectory)
      try? FileSystem.durableRename(kept, to: layout.dataDirectory)
    }
  }

  // MARK: - The provider's files

  /// The provider layout inside an installed extension's container.
  ///
  /// - Throws: ``DeviceLoadError/device(_:)``.
  public static func layout(_ device: SimulatedDevice, _ identifier: String) throws(DeviceLoadError) -> ProviderLayout {
    do {
      return ProviderLayout(containerPath: try device.appGroupContainerURL(forExtensionWithIdentifier: identifier).path)
    } catch {
      throw .device(error)
    }
  }

  /// The provider state in `layout` as its provider plans with it: an
  /// empty state when it has none or it is not a valid state.
  ///
  /// - Throws: ``DeviceLoadError/providerStorage(identifier:_:)`` when it
  ///   cannot be read.
  public static func providerState(in layout: ProviderLayout, _ identifier: String) throws(DeviceLoadError)
    -> ProviderState
  {
    do {
      return try ProviderStateStore(path: layout.statePath).loadForPlanning()
    } catch {
      throw .providerStorage(identifier: identifier, error)
    }
  }
}
