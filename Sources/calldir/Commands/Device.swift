import CallDirectorySync
import CalldirSystem
import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import CalldirDevice
import CommandLineKit
import Foundation

extension Calldir {
  /// `calldir device`: a simulated iOS device whose Call Directory
  /// extensions run calldir's provider.
  enum Device: Command {
    static let configuration = CommandConfiguration(
      name: "device",
      abstract: "Load or sync blobs into a simulated device and show what it holds.",
      discussion: """
        A device is a directory (CallKitMock's SimulatedDevice).

        Its extensions are named calldir.extension.1, calldir.extension.2, …; each runs calldir's \
        provider in a child process under a memory budget, reading its blobs from its app-group \
        container (CallDirectory/Data/) and keeping the loaded version and digest in \
        CallDirectory/state.json.

        `device sync` brings the extensions to a store's latest version from its signed manifest \
        and keeps what it synced in DIR/sync/.
        """,
      subcommands: [Load.self, Sync.self, Reset.self, Dump.self, Status.self, ExtensionHost.self],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
      ]
    )
  }
}

/// Helpers shared by the `device` commands.
enum DeviceSupport {
  /// Where `device sync` keeps a device's sync state and staged files
  /// (`DIR/sync/`), and its rollback floor: `DIR/rollback-floor.json`,
  /// outside `DIR/sync/`, so that neither a lost sync directory nor
  /// `device reset` takes it.
  static func syncDirectory(of device: SimulatedDevice) -> SyncDirectory {
    SyncDirectory(
      path: device.directoryURL.path + "/sync", rollbackFloorPath: device.directoryURL.path + "/rollback-floor.json")
  }

  /// `com.example.blocklist version 5, …`, or `none`.
  static func describe(_ floors: [String: Int]) -> String {
    guard !floors.isEmpty else { return "none" }
    return floors.sorted { $0.key < $1.key }.map { "\($0.key.isEmpty ? "(unnamed)" : $0.key) version \($0.value)" }
      .joined(separator: ", ")
  }

  /// Opens an existing device, writing nothing: what `device status`,
  /// `dump` and `reset` read. Only `device load` and `device sync` make a
  /// device (``open(_:)``).
  ///
  /// - Throws: A 66 failure when `path` is not a device's directory
  ///   (missing, not a directory, or without `device.json`).
  static func openExisting(_ path: String) throws -> SimulatedDevice {
    let noDevice = CommandFailure(
      .noInput, "no device at '\(path)': 'calldir device load' or 'calldir device sync' makes one")
    guard (try? FileSystem.status(path))?.kind == .directory else { throw noDevice }
    do {
      return try SimulatedDevice(existingDirectoryURL: URL(fileURLWithPath: path, isDirectory: true))
    } catch {
      guard case .noDevice = error else { throw error }
      throw noDevice
    }
  }

  /// Opens a device directory, creating it when missing.
  static func open(_ path: String) throws(SimulatedDeviceError) -> SimulatedDevice {
    try SimulatedDevice(directoryURL: URL(fileURLWithPath: path, isDirectory: true))
  }

  /// The installed extensions: calldir's by index, then any others by name.
  static func extensions(of device: SimulatedDevice) throws(SimulatedDeviceError) -> [String] {
    CalldirExtensions.sorted(try device.installedExtensionIdentifiers())
  }

  /// The provider state of an installed extension as its provider plans
  /// with it (see ``DeviceLoader/providerState(in:_:)``).
  static func providerState(_ device: SimulatedDevice, _ identifier: String) throws -> ProviderState {
    try DeviceLoader.providerState(in: try DeviceLoader.layout(device, identifier), identifier)
  }

  /// How calldir's extensions run: this executable's hidden
  /// `device _extension` command, in a child process.
  static func extensionLaunch(allowsDowngrade: Bool) -> ExtensionLaunch {
    .childProcess(
      executablePath: executablePath(),
      arguments: ["device", Calldir.Device.ExtensionHost.configuration.name] + (allowsDowngrade ? ["--allow-downgrade"] : []))
  }

  /// The running executable's path, from `/proc/self/exe` (falling back to `argv[0]`).
  static func executablePath() -> String {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return path
    }
    return URL(fileURLWithPath: CommandLine.arguments.first ?? "calldir").standardizedFileURL.path
  }

  /// A failed request's full text, including what the system saw.
  static func detail(_ error: any Error) -> String {
    if let error = error as? ExtensionCancellationError { return error.message }
    return String(describing: error)
  }
}
