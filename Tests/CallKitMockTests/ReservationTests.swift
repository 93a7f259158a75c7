import Foundation
import Testing

@testable import CallKitMock

/// Reserving an extension's requests, as an app does around preparing a
/// reload.
@Suite struct ReservationTests {
  @Test func aReservationKeepsEveryOtherRequestOut() throws {
    let fixture = try Fixture()
    fixture.device.registerProvider(forExtensionWithIdentifier: Fixture.identifier) {
      ClosureProvider { context in
        context.addBlockingEntry(withNextSequentialPhoneNumber: 42)
        context.completeRequest()
      }
    }
    let reservation = try fixture.device.reserveExtension(withIdentifier: Fixture.identifier)
    #expect(reservation.isHeld)
    #expect(code(fixture.device.reloadExtension(withIdentifier: Fixture.identifier)) == .currentlyLoading)
    #expect(throws: SimulatedDeviceError.extensionBusy(Fixture.identifier)) {
      try fixture.device.reserveExtension(withIdentifier: Fixture.identifier)
    }
    #expect(throws: SimulatedDeviceError.extensionBusy(Fixture.identifier)) {
      try fixture.device.uninstallExtension(withIdentifier: Fixture.identifier)
    }
    // Another value over the same directory (another process) is kept out too.
    let other = try SimulatedDevice(directoryURL: fixture.directory.url)
    #expect(throws: SimulatedDeviceError.extensionBusy(Fixture.identifier)) {
      try other.reserveExtension(withIdentifier: Fixture.identifier)
    }

    let report = reservation.reloadExtension()
    #expect(report.error == nil && report.blockingEntryCount == 1)
    #expect(fixture.blocking == [42])
    reservation.release()
    #expect(!reservation.isHeld)
    #expect(code(reservation.reloadExtension()) == .currentlyLoading)
    #expect(fixture.device.reloadExtension(withIdentifier: Fixture.identifier).error == nil)
  }

  @Test func anExtensionCanBeReservedBeforeItIsInstalled() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    let reservation = try device.reserveExtension(withIdentifier: "later.ext")
    #expect(code(reservation.reloadExtension()) == .noExtensionFound)
    try device.installExtension(withIdentifier: "later.ext")
    device.registerProvider(forExtensionWithIdentifier: "later.ext") {
      ClosureProvider { $0.completeRequest() }
    }
    #expect(code(device.reloadExtension(withIdentifier: "later.ext")) == .currentlyLoading)
    #expect(reservation.reloadExtension().error == nil)
    #expect(throws: SimulatedDeviceError.invalidIdentifier("../x")) { try device.reserveExtension(withIdentifier: "../x") }
  }

  @Test func uninstallingAndReinstallingKeepsTheLockFile() throws {
    let fixture = try Fixture()
    let lockPath = fixture.device.loadLockPath(Fixture.identifier)
    try fixture.device.uninstallExtension(withIdentifier: Fixture.identifier)
    #expect(FileManager.default.fileExists(atPath: lockPath))
    #expect(try fixture.device.installedExtensionIdentifiers().isEmpty)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.device.extensionsPath)
    #expect(leftovers.isEmpty, "\(leftovers)")
    try fixture.device.installExtension(withIdentifier: Fixture.identifier)
    #expect(try fixture.device.installedExtensionIdentifiers() == [Fixture.identifier])
  }
}
