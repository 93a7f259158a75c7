import Foundation
import Testing

@testable import CallKitMock

@Suite struct DeviceTests {
  /// Opening an existing device writes nothing, and a directory that holds
  /// no device (or no directory) is not one.
  @Test func openingAnExistingDeviceWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let manager = FileManager.default
    let plain = directory.url.appendingPathComponent("plain", isDirectory: true)
    try manager.createDirectory(at: plain, withIntermediateDirectories: true)
    for url in [plain, directory.url.appendingPathComponent("missing", isDirectory: true)] {
      #expect(throws: SimulatedDeviceError.noDevice(url.standardizedFileURL.path)) {
        try SimulatedDevice(existingDirectoryURL: url)
      }
    }
    #expect(try manager.contentsOfDirectory(atPath: plain.path).isEmpty)
    #expect(!manager.fileExists(atPath: directory.url.appendingPathComponent("missing").path))

    let made = directory.url.appendingPathComponent("device", isDirectory: true)
    try SimulatedDevice(directoryURL: made).installExtension(withIdentifier: "com.example.a")
    let before = try manager.subpathsOfDirectory(atPath: made.path).sorted()
    let device = try SimulatedDevice(existingDirectoryURL: made)
    #expect(try device.installedExtensionIdentifiers() == ["com.example.a"])
    #expect(try device.status(forExtensionWithIdentifier: "com.example.a").isEnabled)
    #expect(try manager.subpathsOfDirectory(atPath: made.path).sorted() == before)

    // A device whose extensions directory is gone has none.
    try manager.removeItem(at: made.appendingPathComponent("extensions"))
    #expect(try SimulatedDevice(existingDirectoryURL: made).installedExtensionIdentifiers().isEmpty)
    #expect(!manager.fileExists(atPath: made.appendingPathComponent("extensions").path))
  }

  @Test func unknownExtensionIsNotFound() throws {
    let fixture = try Fixture()
    let manager = CXCallDirectoryManager(device: fixture.device)
    var reloadError: (any Error)?
    manager.reloadExtension(withIdentifier: "com.example.missing") { reloadError = $0 }
    #expect((reloadError as? CXErrorCodeCallDirectoryManagerError)?.code == .noExtensionFound)

    var status: CXCallDirectoryManager.EnabledStatus?
    var statusError: (any Error)?
    manager.getEnabledStatusForExtension(withIdentifier: "com.example.missing") {
      status = $0
      statusError = $1
    }
    #expect(status == .unknown)
    #expect((statusError as? CXErrorCodeCallDirectoryManagerError)?.code == .noExtensionFound)
    // An identifier that is not even valid is simply not found.
    #expect(code(fixture.device.reloadExtension(withIdentifier: "../escape")) == .noExtensionFound)
  }

  @Test func inProcessExtensionWithoutProviderIsNotFound() throws {
    let fixture = try Fixture()
    #expect(code(fixture.device.reloadExtension(withIdentifier: Fixture.identifier)) == .noExtensionFound)
  }

  @Test func disabledExtensionFailsAndKeepsItsStore() async throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1])
    let manager = CXCallDirectoryManager(device: fixture.device)
    #expect(try await manager.enabledStatusForExtension(withIdentifier: Fixture.identifier) == .enabled)
    try fixture.device.setEnabled(false, forExtensionWithIdentifier: Fixture.identifier)
    #expect(try await manager.enabledStatusForExtension(withIdentifier: Fixture.identifier) == .disabled)
    await #expect(throws: CXErrorCodeCallDirectoryManagerError(.extensionDisabled)) {
      try await manager.reloadExtension(withIdentifier: Fixture.identifier)
    }
    #expect(fixture.blocking == [1])
    try fixture.device.setEnabled(true, forExtensionWithIdentifier: Fixture.identifier)
    try manager.reloadExtensionSynchronously(withIdentifier: Fixture.identifier)
  }

  @Test func installedDisabledReportsDisabled() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    try device.installExtension(withIdentifier: "a.b", isEnabled: false)
    var status: CXCallDirectoryManager.EnabledStatus?
    CXCallDirectoryManager(device: device).getEnabledStatusForExtension(withIdentifier: "a.b") { value, _ in
      status = value
    }
    #expect(status == .disabled)
  }

  @Test func installValidation() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    #expect(throws: SimulatedDeviceError.invalidIdentifier("bad/id")) {
      try device.installExtension(withIdentifier: "bad/id")
    }
    #expect(throws: SimulatedDeviceError.invalidIdentifier("")) { try device.installExtension(withIdentifier: "") }
    try device.installExtension(withIdentifier: "ok.one")
    #expect(throws: SimulatedDeviceError.alreadyInstalled("ok.one")) {
      try device.installExtension(withIdentifier: "ok.one")
    }
    #expect(throws: SimulatedDeviceError.self) {
      try device.installExtension(withIdentifier: "ok.two", settings: ExtensionSettings(maximumEntryCount: -1))
    }
    try device.installExtension(withIdentifier: "ok.two")
    #expect(try device.installedExtensionIdentifiers() == ["ok.one", "ok.two"])
    try device.uninstallExtension(withIdentifier: "ok.one")
    #expect(try device.installedExtensionIdentifiers() == ["ok.two"])
    #expect(throws: SimulatedDeviceError.noSuchExtension("ok.one")) {
      try device.uninstallExtension(withIdentifier: "ok.one")
    }
  }

  @Test func persistsAcrossReopening() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [3, 4], identification: [(5, "five")])
    let reopened = try SimulatedDevice(directoryURL: fixture.directory.url)
    #expect(try reopened.blockingEntries(forExtensionWithIdentifier: Fixture.identifier) == [3, 4])
    #expect(try reopened.identificationEntries(forExtensionWithIdentifier: Fixture.identifier) == [
      .init(number: 5, label: "five")
    ])
    let status = try reopened.status(forExtensionWithIdentifier: Fixture.identifier)
    #expect(status.hasStore && status.blockingEntryCount == 2 && status.identificationEntryCount == 1)
    #expect(status.reloadCount == 1 && status.lastSuccessfulLoadDate != nil && status.lastError == nil)

    // The reopened device sees the store as a previous load: incremental.
    let seen = Box<Bool?>(nil)
    reopened.registerProvider(forExtensionWithIdentifier: Fixture.identifier) {
      ClosureProvider { context in
        seen.value = context.isIncremental
        context.removeBlockingEntry(withPhoneNumber: 3)
        context.completeRequest()
      }
    }
    #expect(reopened.reloadExtension(withIdentifier: Fixture.identifier).error == nil)
    #expect(seen.value == true)
    #expect(fixture.blocking == [4])
  }

  @Test func statusRecordsTheLastError() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [2, 1])
    let status = try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier)
    #expect(status.lastError?.code == 3)
    #expect(status.lastError?.domain == "com.apple.CallKit.error.calldirectorymanager")
    #expect(status.reloadCount == 1 && status.lastSuccessfulLoadDate == nil)
  }

  @Test func nestedReloadIsCurrentlyLoading() throws {
    let fixture = try Fixture()
    let device = fixture.device
    let nested = Box<ReloadReport?>(nil)
    let report = fixture.load { context in
      nested.value = device.reloadExtension(withIdentifier: Fixture.identifier)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1)
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(nested.value.flatMap(code) == .currentlyLoading)
    // The lock is released with the request.
    #expect(fixture.loadComplete(blocking: [2]).error == nil)
  }

  @Test func lockHeldByAnotherOpenFileIsCurrentlyLoading() throws {
    let fixture = try Fixture()
    let path = fixture.device.loadLockPath(Fixture.identifier)
    let held = try #require(try _FileLock.tryAcquire(path))
    #expect(code(fixture.loadComplete(blocking: [1])) == .currentlyLoading)
    #expect(throws: SimulatedDeviceError.extensionBusy(Fixture.identifier)) {
      try fixture.device.uninstallExtension(withIdentifier: Fixture.identifier)
    }
    withExtendedLifetime(held) {}
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs util-linux's flock"))
  func lockHeldByAnotherProcessIsCurrentlyLoading() throws {
    let fixture = try Fixture()
    let path = fixture.device.loadLockPath(Fixture.identifier)
    let flock = Process()
    flock.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    flock.arguments = [path, "sleep", "3"]
    try flock.run()
    defer {
      flock.terminate()
      flock.waitUntilExit()
    }
    var report = fixture.loadComplete(blocking: [1])
    for _ in 0..<50 where code(report) != .currentlyLoading {
      Thread.sleep(forTimeInterval: 0.05)
      report = fixture.loadComplete(blocking: [1])
    }
    #expect(code(report) == .currentlyLoading)
  }

  @Test func openSettingsIsRecorded() async throws {
    let fixture = try Fixture()
    let manager = CXCallDirectoryManager(device: fixture.device)
    var error: (any Error)? = CXErrorCodeCallDirectoryManagerError(.unknown)
    manager.openSettings { error = $0 }
    #expect(error == nil)
    try await manager.openSettings()
    #expect(try fixture.device.settingsOpenedCount() == 2)
  }

  @Test func containerIsHandedToTheProvider() throws {
    let fixture = try Fixture()
    let container = try fixture.device.appGroupContainerURL(forExtensionWithIdentifier: Fixture.identifier)
    let seen = Box<URL?>(nil)
    fixture.load { context in
      seen.value = context.simulatedAppGroupContainerURL
      try? Data("v42".utf8).write(to: context.simulatedAppGroupContainerURL.appendingPathComponent("version"))
      context.completeRequest()
    }
    #expect(seen.value?.standardizedFileURL.path == container.standardizedFileURL.path)
    #expect(try String(contentsOf: container.appendingPathComponent("version"), encoding: .utf8) == "v42")
  }

  @Test func corruptStoreFailsWithUnknownAndStaysPut() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1, 2, 3])
    let url = try fixture.device.storeFileURL(forExtensionWithIdentifier: Fixture.identifier)
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] ^= 0x01
    try bytes.write(to: url)
    let report = fixture.load { context in
      _ = context.isIncremental
      context.addBlockingEntry(withNextSequentialPhoneNumber: 9)
      context.completeRequest()
    }
    #expect(code(report) == .unknown)
    #expect(try Data(contentsOf: url) == bytes)
    #expect(throws: SimulatedDeviceError.self) {
      _ = try fixture.device.blockingEntries(forExtensionWithIdentifier: Fixture.identifier)
    }
    // A complete load does not read the old store and recovers.
    #expect(fixture.loadComplete(blocking: [7]).error == nil)
    #expect(fixture.blocking == [7])
  }
}
