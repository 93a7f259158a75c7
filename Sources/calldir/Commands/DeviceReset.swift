import CallDirectorySync
import CallKitMock
import CalldirDevice
import CommandLineKit

extension Calldir.Device {
  /// `calldir device reset`: forget what the device synced, so that it can
  /// adopt another dataset.
  struct Reset: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "reset",
      abstract: "Forget a simulated device's sync and remove calldir's extensions, so another dataset can be adopted.",
      discussion: """
        A device follows the dataset of its first sync and refuses any other (exit 65).

        A reset removes the sync state and every staged download (DIR/sync/) and uninstalls every \
        calldir.extension.N with its entries and container, as deleting and reinstalling the app \
        would; the next `device sync` is a first sync and adopts the manifest's dataset.

        The rollback floor (DIR/rollback-floor.json: the highest version the device accepted of \
        each dataset) is kept, as an app's keychain outlives the app: a reset never makes a \
        replayed older manifest acceptable (`device sync --allow-downgrade` does). Other \
        extensions are left alone.
        """,
      exitStatuses: [
        .init(.success, "Reset."),
        .init(.failure, "A load or sync of the device runs (currentlyLoading; run it again afterwards)."),
        .init(.noInput, "DIR is not a device (nothing is written there)."),
        .init(.ioError, "The device cannot be written."),
      ],
      examples: [
        .init("Forget the device's dataset before syncing another.", "calldir device reset --device out/phone"),
      ],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
      ]
    )

    @Option(.device)
    var devicePath: String
    @Flag(.json, help: "Print one JSON object: {\"removedExtensions\", \"forgotSync\", \"rollbackFloors\"}.")
    var json: Bool

    func run(context: CommandContext) throws {
      let device = try DeviceSupport.openExisting(devicePath)
      let directory = DeviceSupport.syncDirectory(of: device)
      let lock = try directory.lock()
      defer { withExtendedLifetime(lock) {} }
      let previous = try? directory.stateStore.load()
      // The state goes first: a reset cut short leaves a device whose
      // next sync is a first sync, and running reset again finishes it.
      try directory.clear()
      var removed: [String] = []
      for identifier in try DeviceSupport.extensions(of: device) where CalldirExtensions.index(of: identifier) != nil {
        do {
          try device.uninstallExtension(withIdentifier: identifier)
        } catch {
          guard case .extensionBusy = error else { throw error }
          throw CommandFailure(.failure, CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description)
        }
        removed.append(identifier)
      }
      // Kept, not read for the reset: a malformed floor does not stop it.
      let floors = try? directory.rollbackFloorStore.load()
      if json {
        context.standardOutput.writeJSONLine(
          DeviceResetOutcome(removedExtensions: removed, forgotSync: previous != nil, floors: floors.map(RollbackFloors.init)))
      } else {
        let sync =
          previous.map { "forgot its sync of \($0.dataset.isEmpty ? "(unnamed)" : $0.dataset) version \($0.version)" }
          ?? "it had never synced"
        let noun = removed.count == 1 ? "extension" : "extensions"
        var line = "\(devicePath): reset; removed \(removed.count) \(noun), \(sync)"
        if let floors, !floors.isEmpty { line += "; kept its rollback floor (\(DeviceSupport.describe(floors)))" }
        context.standardOutput.writeLine(line)
      }
    }
  }
}
