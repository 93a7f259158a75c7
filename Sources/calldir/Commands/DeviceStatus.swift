import CalldirSystem
import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import CommandLineKit
import Foundation

extension Calldir.Device {
  /// `calldir device status`: what each extension holds and how its last load went.
  struct Status: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "status",
      abstract: "Show a simulated device's sync and each extension: status, loaded version, counts and last load.",
      discussion: """
        The sync line comes from DIR/sync/state.json (`device sync`): the dataset the device \
        follows, the version it synced, and the incremental syncs since the last full one; the \
        rollback floor line from DIR/rollback-floor.json: for each dataset the device synced, the \
        highest version it accepted, below which a sync refuses without --allow-downgrade.

        The loaded version and digest come from the provider's state in the extension's container \
        (a pending version: a request whose outcome was never recorded; the next load resets and \
        takes a full snapshot); counts from the system's store. Dates are ISO 8601, UTC.

        --json prints {"sync": {"dataset", "version", "published", "incrementalSyncs", \
        "extensions": [{"index", "version"}]} or null, "extensions": […], "rollbackFloors": \
        [{"dataset", "version"}] (null when the file is malformed)}.
        """,
      exitStatuses: [
        .init(.success, "The status is printed."),
        .init(.noInput, "DIR is not a device (nothing is written there)."),
        .init(.ioError, "The device cannot be read."),
      ],
      examples: [
        .init("Show what a device holds.", "calldir device status --device out/phone"),
      ],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
      ]
    )

    @Option(.device)
    var devicePath: String
    @Flag(.json, help: "Print one JSON object.")
    var json: Bool

    func run(context: CommandContext) throws {
      let device = try DeviceSupport.openExisting(devicePath)
      let sync: SyncState?
      let directory = DeviceSupport.syncDirectory(of: device)
      sync = try directory.stateStore.load()
      // A malformed floor is shown as such; only a sync refuses it.
      let floors = Result { () throws(SyncError) in try directory.rollbackFloorStore.load() }
      if !json {
        Self.describe(sync, to: context.standardOutput)
        switch floors {
        case .success(let floors):
          context.standardOutput.writeLine("rollback floor: \(DeviceSupport.describe(floors))")
        case .failure(.rollbackFloorMalformed(let path, let reason)):
          context.standardOutput.writeLine("rollback floor: \(path) is malformed: \(reason)")
        case .failure(let error):
          context.standardOutput.writeLine("rollback floor: unreadable: \(error)")
        }
      }
      var extensions: [DeviceStatusReport.Extension] = []
      for identifier in try DeviceSupport.extensions(of: device) {
        let status: ExtensionStatus
        status = try device.status(forExtensionWithIdentifier: identifier)
        let state = try DeviceSupport.providerState(device, identifier)
        if json {
          extensions.append(.init(status: status, state: state))
        } else {
          Self.describe(status, state, to: context.standardOutput)
        }
      }
      if json {
        context.standardOutput.writeJSONLine(
          DeviceStatusReport(sync: sync, extensions: extensions, floors: (try? floors.get()).map(RollbackFloors.init)))
      }
    }

    private static func describe(_ sync: SyncState?, to output: any OutputSink) {
      guard let sync else {
        output.writeLine("sync: never synced")
        return
      }
      output.writeLine(
        "sync: \(sync.dataset) version \(sync.version) (published \(sync.published)), "
          + "\(sync.incrementalSyncs) incremental syncs since the last full one, "
          + "extensions \(sync.extensions.keys.sorted().map(String.init).joined(separator: ", "))")
    }

    private static func describe(_ status: ExtensionStatus, _ state: ProviderState, to output: any OutputSink) {
      output.writeLine("\(status.identifier):")
      output.writeLine("  status: \(status.isEnabled ? "enabled" : "disabled")")
      if let loaded = state.loaded {
        output.writeLine("  loaded: version \(loaded.version), digest \(loaded.digest.hex)")
      } else {
        output.writeLine("  loaded: none")
      }
      if let pending = state.pending {
        output.writeLine("  pending: version \(pending.version) (outcome never recorded; the next load resets)")
      }
      output.writeLine("  blocking: \(status.blockingEntryCount)")
      output.writeLine("  identification: \(status.identificationEntryCount)")
      output.writeLine("  reloads: \(status.reloadCount)")
      output.writeLine("  last load: \(status.lastReloadDate.map { $0.formatted(.iso8601) } ?? "never")")
      output.writeLine("  last successful load: \(status.lastSuccessfulLoadDate.map { $0.formatted(.iso8601) } ?? "never")")
      output.writeLine("  last error: \(status.lastError.map(\.message) ?? "none")")
    }
  }
}
