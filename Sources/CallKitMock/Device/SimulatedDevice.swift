import CalldirSystem
import Foundation

/// A simulated iOS device's Call Directory system, persisted in a directory.
///
/// It holds installed extensions by identifier, each with its enabled flag,
/// its launch mode, its settings, the system's store of blocking and
/// identification entries and an app-group container the provider may use.
/// Several `SimulatedDevice` values, in one process or several, may share a
/// directory: metadata updates take a device-wide `flock`, and a reload
/// takes the extension's reservation (see ``reserveExtension(withIdentifier:)``;
/// a second reload meanwhile fails with
/// ``CXErrorCodeCallDirectoryManagerError/Code/currentlyLoading``).
///
/// Every file the device keeps is replaced atomically and durably
/// (``AtomicFile``: a temporary file, `fsync`, `rename`, `fsync` of the
/// directory), so after a crash each holds its old or its new contents.
///
/// Layout of the directory:
///
///     device.json                       device-wide state
///     device.lock                       flock for metadata updates
///     locks/<id>.lock                   flock held by the extension's reservation
///     extensions/<id>/extension.json    enabled flag, launch, settings, last load
///     extensions/<id>/store.bin         the system's entries (see the store format)
///     extensions/<id>/.staging-<pid>-<n>/  the running request's staged entries
///     extensions/<id>/container/        the app-group container
///
/// Newly installed extensions are **enabled** by default for convenience
/// (on iOS the user has to enable them in Settings); pass `isEnabled: false`
/// to start disabled.
///
/// Use it through ``CXCallDirectoryManager`` for CallKit's API, or directly:
///
///     let device = try SimulatedDevice(directoryURL: directory)
///     try device.installExtension(withIdentifier: "com.example.app.CallDirectory")
///     device.registerProvider(forExtensionWithIdentifier: "com.example.app.CallDirectory") {
///       MyProvider()
///     }
///     let report = device.reloadExtension(withIdentifier: "com.example.app.CallDirectory")
public final class SimulatedDevice: Sendable {
  /// The device's directory.
  public let directoryURL: URL
  private let providers = Locked<[String: @Sendable () -> CXCallDirectoryProvider]>([:])

  /// Opens the device in `directoryURL`, creating it when missing.
  ///
  /// - Throws: ``SimulatedDeviceError/storage(_:)`` when the directory cannot
  ///   be created or `device.json` is unreadable.
  public init(directoryURL: URL) throws(SimulatedDeviceError) {
    self.directoryURL = directoryURL.standardizedFileURL
    try storage { () throws(_DeviceStorageError) in
      try _io { () throws(FileError) in
        try FileSystem.createDirectory(extensionsPath)
        try FileSystem.createDirectory(locksPath)
      }
      if FileSystem.exists(devicePath) {
        _ = try _DeviceRecord.load(devicePath)
      } else {
        try _DeviceRecord().save(devicePath)
      }
    }
  }

  /// Opens the device in `directoryURL` without creating or changing
  /// anything: for a caller that only reads it, or changes what it already
  /// holds.
  ///
  /// - Throws: ``SimulatedDeviceError/noDevice(_:)`` when there is no
  ///   device there (no directory, or a directory without `device.json`);
  ///   ``SimulatedDeviceError/storage(_:)`` when `device.json` cannot be
  ///   read or is not the device's.
  public init(existingDirectoryURL directoryURL: URL) throws(SimulatedDeviceError) {
    self.directoryURL = directoryURL.standardizedFileURL
    let kind = try storage { () throws(_DeviceStorageError) in
      try _io { () throws(FileError) in try FileSystem.statusIfPresent(devicePath)?.kind }
    }
    guard kind == .regular else { throw .noDevice(self.directoryURL.path) }
    _ = try storage { () throws(_DeviceStorageError) in try _DeviceRecord.load(devicePath) }
  }

  // MARK: - Installation

  /// Installs an extension.
  ///
  /// - Parameters:
  ///   - identifier: ASCII letters, digits, `.`, `-` and `_`, at most 200
  ///     characters, not starting with `.`.
  ///   - launch: How its provider runs (default ``ExtensionLaunch/inProcess``).
  ///   - settings: Its limits and policies.
  ///   - isEnabled: Whether it starts enabled (default `true`).
  /// - Throws: ``SimulatedDeviceError``.
  public func installExtension(
    withIdentifier identifier: String,
    launch: ExtensionLaunch = .inProcess,
    settings: ExtensionSettings = ExtensionSettings(),
    isEnabled: Bool = true
  ) throws(SimulatedDeviceError) {
    try Self.validate(identifier)
    try settings.validate()
    try withDeviceLock { () throws(SimulatedDeviceError) in
      guard !FileSystem.exists(recordPath(identifier)) else { throw .alreadyInstalled(identifier) }
      try storage { () throws(_DeviceStorageError) in
        try _io { () throws(FileError) in
          try FileSystem.createDirectory(containerPath(identifier))
          try FileSystem.syncDirectory(containing: extensionPath(identifier))
        }
        // The record comes last: an extension is installed once it exists.
        let record = _ExtensionRecord(
          identifier: identifier, isEnabled: isEnabled, launch: launch, settings: settings, installDate: Date())
        try record.save(recordPath(identifier))
      }
    }
  }

  /// Uninstalls an extension, deleting its store and container at once.
  ///
  /// The extension's directory is first renamed away (durably), so it is
  /// gone whole even if the removal of its files is interrupted.
  ///
  /// - Throws: ``SimulatedDeviceError/extensionBusy(_:)`` while a request for
  ///   it runs or it is reserved, ``SimulatedDeviceError/noSuchExtension(_:)``.
  public func uninstallExtension(withIdentifier identifier: String) throws(SimulatedDeviceError) {
    _ = try record(identifier)
    try withDeviceLock { () throws(SimulatedDeviceError) in
      let lock = try storage { () throws(_DeviceStorageError) in
        try _io { () throws(FileError) in try _FileLock.tryAcquire(loadLockPath(identifier)) }
      }
      guard let lock else { throw .extensionBusy(identifier) }
      defer { withExtendedLifetime(lock) {} }
      let removed = "\(extensionsPath)/.\(identifier).removed-\(ProcessInfo.processInfo.processIdentifier)"
      try storage { () throws(_DeviceStorageError) in
        try _io { () throws(FileError) in
          try FileSystem.removeTree(removed)
          try FileSystem.durableRename(extensionPath(identifier), to: removed)
        }
      }
      try? FileSystem.removeTree(removed)
    }
    _ = providers.withLock { $0.removeValue(forKey: identifier) }
  }

  /// The identifiers of the installed extensions, sorted.
  public func installedExtensionIdentifiers() throws(SimulatedDeviceError) -> [String] {
    let names = try storage { () throws(_DeviceStorageError) in
      try _io { () throws(FileError) -> [String] in
        // A device opened as it is may not have its directory yet.
        guard try FileSystem.statusIfPresent(extensionsPath) != nil else { return [] }
        return try FileSystem.contentsOfDirectory(extensionsPath)
      }
    }
    return names.filter { Self.isValid($0) && FileSystem.exists(recordPath($0)) }
  }

  /// Enables or disables an extension. A disabled extension keeps its store;
  /// reloading it fails with
  /// ``CXErrorCodeCallDirectoryManagerError/Code/extensionDisabled``.
  public func setEnabled(_ isEnabled: Bool, forExtensionWithIdentifier identifier: String) throws(SimulatedDeviceError) {
    try updateRecord(identifier) { $0.isEnabled = isEnabled }
  }

  /// Replaces an extension's settings; they apply from the next reload.
  public func updateSettings(
    _ settings: ExtensionSettings,
    forExtensionWithIdentifier identifier: String
  ) throws(SimulatedDeviceError) {
    try settings.validate()
    try updateRecord(identifier) { $0.settings = settings }
  }

  /// Changes how an extension's provider runs.
  public func updateLaunch(_ launch: ExtensionLaunch, forExtensionWithIdentifier identifier: String) throws(SimulatedDeviceError) {
    try updateRecord(identifier) { $0.launch = launch }
  }

  /// Registers the provider factory for an ``ExtensionLaunch/inProcess``
  /// extension in this `SimulatedDevice` value (it is not persisted). Each
  /// reload creates a new provider.
  public func registerProvider(
    forExtensionWithIdentifier identifier: String,
    _ makeProvider: @escaping @Sendable () -> CXCallDirectoryProvider
  ) {
    providers.withLock { $0[identifier] = makeProvider }
  }

  /// Makes the next reload of an extension fail with `code` after its
  /// provider has run, leaving the store unchanged (one shot).
  public func injectFailure(
    _ code: CXErrorCodeCallDirectoryManagerError.Code,
    intoNextReloadOfExtensionWithIdentifier identifier: String
  ) throws(SimulatedDeviceError) {
    try updateRecord(identifier) { $0.injectedFailure = code.rawValue }
  }

  // MARK: - Status

  /// What the system knows about an extension.
  ///
  /// - Throws: ``SimulatedDeviceError/noSuchExtension(_:)``, or
  ///   ``SimulatedDeviceError/storage(_:)`` for an unreadable record or store
  ///   header.
  public func status(forExtensionWithIdentifier identifier: String) throws(SimulatedDeviceError) -> ExtensionStatus {
    let record = try record(identifier)
    let header = try storage { () throws(_DeviceStorageError) in
      try _EntryStore.readHeaderIfPresent(storePath(identifier))
    }
    return ExtensionStatus(
      identifier: identifier,
      isEnabled: record.isEnabled,
      launch: record.launch,
      settings: record.settings,
      hasStore: header != nil,
      blockingEntryCount: Int(header?.blockingCount ?? 0),
      identificationEntryCount: Int(header?.identificationCount ?? 0),
      reloadCount: record.reloadCount,
      lastReloadDate: record.lastReloadDate,
      lastSuccessfulLoadDate: record.lastSuccessfulLoadDate,
      lastError: record.lastError.map { .init(domain: $0.domain, code: $0.code, message: $0.message) }
    )
  }

  /// The extension's app-group container directory.
  public func appGroupContainerURL(forExtensionWithIdentifier identifier: String) throws(SimulatedDeviceError) -> URL {
    _ = try record(identifier)
    return URL(fileURLWithPath: containerPath(identifier), isDirectory: true)
  }

  /// The extension's store file (it does not exist before the first
  /// successful load). It is replaced atomically by each committed request.
  public func storeFileURL(forExtensionWithIdentifier identifier: String) throws(SimulatedDeviceError) -> URL {
    _ = try record(identifier)
    return URL(fileURLWithPath: storePath(identifier))
  }

  /// How many times ``CXCallDirectoryManager/openSettings(completionHandler:)``
  /// was called on this device.
  public func settingsOpenedCount() throws(SimulatedDeviceError) -> Int {
    try storage { () throws(_DeviceStorageError) in try _DeviceRecord.load(devicePath).settingsOpenedCount }
  }

  func recordSettingsOpened() throws(SimulatedDeviceError) {
    try withDeviceLock { () throws(SimulatedDeviceError) in
      try storage { () throws(_DeviceStorageError) in
        var record = try _DeviceRecord.load(devicePath)
        record.settingsOpenedCount += 1
        try record.save(devicePath)
      }
    }
  }

  // MARK: - Paths

  var extensionsPath: String { directoryURL.path + "/extensions" }
  var locksPath: String { directoryURL.path + "/locks" }
  var devicePath: String { directoryURL.path + "/device.json" }
  var deviceLockPath: String { directoryURL.path + "/device.lock" }
  func extensionPath(_ identifier: String) -> String { extensionsPath + "/" + identifier }
  func recordPath(_ identifier: String) -> String { extensionPath(identifier) + "/extension.json" }
  func storePath(_ identifier: String) -> String { extensionPath(identifier) + "/store.bin" }
  /// The reservation's lock file. It lives outside the extension's
  /// directory, so that installing and uninstalling never replace a lock
  /// file another process holds open.
  func loadLockPath(_ identifier: String) -> String { locksPath + "/" + identifier + ".lock" }
  func containerPath(_ identifier: String) -> String { extensionPath(identifier) + "/container" }

  // MARK: - Records

  /// Whether `identifier` is acceptable as an extension identifier.
  static func isValid(_ identifier: String) -> Bool {
    guard (1...200).contains(identifier.utf8.count), identifier.first != "." else { return false }
    return identifier.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
        true
      default:
        false
      }
    }
  }

  static func validate(_ identifier: String) throws(SimulatedDeviceError) {
    guard isValid(identifier) else { throw .invalidIdentifier(identifier) }
  }

  func record(_ identifier: String) throws(SimulatedDeviceError) -> _ExtensionRecord {
    guard Self.isValid(identifier) else { throw .noSuchExtension(identifier) }
    let path = recordPath(identifier)
    let present = try storage { () throws(_DeviceStorageError) in
      try _io { () throws(FileError) in try FileSystem.statusIfPresent(path) != nil }
    }
    guard present else { throw .noSuchExtension(identifier) }
    return try storage { () throws(_DeviceStorageError) in try _ExtensionRecord.load(path) }
  }

  func updateRecord(_ identifier: String, _ change: (inout _ExtensionRecord) -> Void) throws(SimulatedDeviceError) {
    try withDeviceLock { () throws(SimulatedDeviceError) in
      var record = try record(identifier)
      change(&record)
      try storage { () throws(_DeviceStorageError) in try record.save(recordPath(identifier)) }
    }
  }

  func withDeviceLock<T>(_ body: () throws(SimulatedDeviceError) -> T) throws(SimulatedDeviceError) -> T {
    let lock = try storage { () throws(_DeviceStorageError) in
      try _io { () throws(FileError) in try _FileLock.acquire(deviceLockPath) }
    }
    defer { withExtendedLifetime(lock) {} }
    return try body()
  }

  /// Runs `body`, reporting a storage failure as ``SimulatedDeviceError/storage(_:)``.
  func storage<T>(_ body: () throws(_DeviceStorageError) -> T) throws(SimulatedDeviceError) -> T {
    do {
      return try body()
    } catch {
      throw error.deviceError
    }
  }

  func provider(for identifier: String) -> (@Sendable () -> CXCallDirectoryProvider)? {
    providers.withLock { $0[identifier] }
  }
}
