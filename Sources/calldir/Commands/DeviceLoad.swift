import CalldirSystem
import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import CalldirDevice
import CommandLineKit
import Foundation

extension Calldir.Device {
  /// `calldir device load`: one reload of a simulated device.
  struct Load: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "load",
      abstract: "Reload a simulated device's extensions with blobs, as iOS would.",
      discussion: """
        FILE i becomes the data of extension calldir.extension.i (installed on first use): it is \
        copied into the extension's app-group container, replacing the data there, and the \
        extension is reloaded.

        Every extension the command loads is reserved first, for the whole command: a concurrent \
        load of any of them fails with currentlyLoading and changes nothing.

        Its provider runs in a child process; a complete request streams a full snapshot, an \
        incremental one applies a delta whose base is the loaded version (and digest), or resets \
        and streams a full snapshot.

        Extensions are reloaded in order and the first failure stops the command; each request is \
        atomic, so a failed extension keeps its entries and its loaded version. Every FILE is \
        checked first (header, and whether it fits the extension's loaded version), so a refused \
        load changes nothing.

        A FILE older than the version its extension holds (a full snapshot, or a delta going \
        backwards) is refused unless --allow-downgrade is given; loading the held version again \
        does nothing.
        """,
      exitStatuses: [
        .init(.success, "Loaded."),
        .init(.failure, "The system failed a request (`error: <case> (<raw value>)`, such as `error: maximumEntriesExceeded (5)`), or another load of the extension runs (currentlyLoading)."),
        .init(.dataError, "A blob is corrupt, or does not fit: a delta on another base (or on a different snapshot of the same version), a delta for an extension that holds nothing, or an older version without --allow-downgrade."),
        .init(.noInput, "A FILE is missing."),
        .init(.ioError, "The device cannot be read or written: a failed request leaves the extension's entries and loaded version as they were, or recorded as pending when even that cannot be written, so that the next load resets; a request whose new store is in place but not durable keeps it, recorded."),
      ],
      examples: [
        .init("Load a snapshot into a new simulated device.", "calldir device load --device out/device out/store/snapshots/v3.cdir"),
      ],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
        .init("The iOS app and extension", "guides/ios-app.md"),
      ]
    )

    @Argument(name: "file", atLeastOne: true, help: "A blob (full snapshot or delta) per extension, in shard order.")
    var files: [String]
    @Option(.device, help: "The simulated device's directory (created when missing).")
    var devicePath: String
    @Flag(.json, help: "Print one JSON object describing each extension's request.")
    var json: Bool
    @Flag(.allowDowngrade, help: "Load a FILE even when it is older than the version its extension holds.")
    var allowsDowngrade: Bool
    @OptionGroup
    var limits: ExtensionLimits

    /// A device that syncs a dataset refuses another dataset's blob (exit
    /// 65): its extensions would hold data its sync does not know.
    private static func checkDataset(of candidates: [BlobCandidate], on device: SimulatedDevice) throws {
      let state = try DeviceSupport.syncDirectory(of: device).stateStore.load()
      guard let (candidate, followed) = DeviceLoader.otherDataset(among: candidates, syncing: state) else { return }
      throw CommandFailure(
        .dataError,
        "\(candidate.path) is of dataset '\(candidate.header.dataset)'; the device syncs '\(followed)'; "
          + "run 'calldir device reset' to adopt another dataset")
    }

    func run(context: CommandContext) throws {
      let candidates = try files.map { path in try DeviceLoader.candidate(path) }
      let device = try DeviceSupport.open(devicePath)
      try Self.checkDataset(of: candidates, on: device)
      let loader = DeviceLoader(
        device: device, launch: DeviceSupport.extensionLaunch(allowsDowngrade: allowsDowngrade),
        settings: limits.settings, allowsDowngrade: allowsDowngrade)
      // Every extension this load touches is reserved for the whole
      // command, before anything changes: a concurrent load (or sync) of
      // any of them fails with currentlyLoading instead of mixing its blobs
      // with these, and what is planned here is what the requests see.
      let reservations = try candidates.indices.map { index in
        try loader.reserve(extension: index + 1)
      }
      defer { reservations.forEach { $0.release() } }
      let loads = try candidates.enumerated().map { index, candidate in
        try loader.plan(candidate, forExtension: index + 1)
      }

      var results: [ExtensionLoadResult] = []
      var failure: (any Error)?
      for (load, reservation) in zip(loads, reservations) {
        let result: ExtensionLoadResult
        do {
          result = try loader.load(load, under: reservation)
        } catch {
          failure = error
          break
        }
        results.append(result)
        if let error = result.report.error, !json {
          context.standardError.writeLine("\(load.identifier): request failed: \(DeviceSupport.detail(error))")
        }
        if let error = result.failure {
          failure = error
          break
        }
        if !json { context.standardOutput.writeLine(Self.describe(result)) }
      }
      if json {
        context.standardOutput.writeJSONLine(DeviceLoadOutcome(results: results, failure: failure))
      }
      if let failure { throw failure }
    }

    // MARK: - Output

    static func describe(_ result: ExtensionLoadResult) -> String {
      let (shard, report, state) = (result.load, result.report, result.state)
      let version = state.loaded.map { "version \($0.version)" } ?? "no version"
      let how: String
      switch shard.plan.strategy {
      case .complete: how = "complete load of \(shard.candidate.summary)"
      case .delta: how = "incremental, \(shard.candidate.summary)"
      case .replace: how = "incremental reset and full load of version \(shard.candidate.header.version)"
      case .upToDate: how = "already up to date"
      }
      var line = "\(shard.identifier): \(version) (\(how)): \(report.blockingEntryCount) blocking, "
        + "\(report.identificationEntryCount) identification"
      if let peak = report.childPeakResidentBytes {
        line += ", extension peak RSS \(peak >> 10) KiB"
        if let baseline = report.childBaselineResidentBytes { line += " (+\((peak - baseline) >> 10) KiB)" }
      }
      return line
    }
  }
}
