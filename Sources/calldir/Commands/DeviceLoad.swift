import CalldirSystem
import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import CommandLineKit
import Foundation

extension Calldir.Device {
  /// `calldir device load`: one reload of a simulated device.
  struct Load: RunnableCommand {
    static let defaultMemoryBudget = "16M"
    static let defaultMaxEntries = 2_000_000
    static let defaultTimeout = 120

    static let configuration = CommandConfiguration(
      name: "load",
      abstract: "Reload a simulated device's extensions with blobs, as iOS would.",
      discussion: """
        FILE i becomes the data of extension calldir.extension.i (installed on first use): \
        it is copied into the extension's app-group container, replacing the data there, \
        and the extension is reloaded. Every extension the command loads is reserved first, \
        for the whole command: a concurrent load of any of them fails with currentlyLoading \
        and changes nothing. Its provider runs in a child process; a \
        complete request streams a full snapshot, an incremental one applies a delta whose \
        base is the loaded version (and digest), or resets and streams a full snapshot. \
        Extensions are reloaded in order and the first failure stops the command; each \
        request is atomic, so a failed extension keeps its entries and its loaded version. \
        Every FILE is checked first (header, and whether it fits the extension's loaded \
        version), so a refused load changes nothing. A FILE older than the version its \
        extension holds (a full snapshot, or a delta going backwards) is refused unless \
        --allow-downgrade is given; loading the held version again does nothing. \
        Exit status: 0 loaded; 1 the system failed a request (prints `error: <case> (<raw value>)`, \
        e.g. `error: maximumEntriesExceeded (5)`); 65 a blob is corrupt, or does not fit: \
        a delta on another base (or on a different snapshot of the same version), a delta \
        for an extension that holds nothing, or an older version without --allow-downgrade; \
        66 a FILE is missing; 74 the device cannot be read or written (a failed request \
        then leaves the extension's entries and loaded version as they were).
        """,
      arguments: [
        .positional("file", arity: .oneOrMore, help: "A blob (full snapshot or delta) per extension, in shard order."),
        .option("device", valueName: "dir", isRequired: true, help: "The simulated device's directory (created when missing)."),
        .flag("json", help: "Print one JSON object describing each extension's request."),
        .flag("allow-downgrade", help: "Load a FILE even when it is older than the version its extension holds."),
        .option(
          "memory-budget", valueName: "size", defaultValue: defaultMemoryBudget,
          help: "Memory the extension process may add above its footprint at launch (peak RSS)."),
        .option(
          "max-entries", valueName: "n", defaultValue: String(defaultMaxEntries),
          help: "Most entries (blocking plus identification) an extension may hold."),
        .option(
          "timeout", valueName: "seconds", defaultValue: String(defaultTimeout),
          help: "How long one request may run before the system interrupts it."),
      ]
    )

    let files: [String]
    let devicePath: String
    let json: Bool
    let allowsDowngrade: Bool
    let memoryBudget: Int
    let maxEntries: Int
    let timeout: Int

    init(arguments: ParsedArguments) throws {
      files = arguments.strings("file")
      devicePath = try arguments.requiredString("device")
      json = arguments.flag("json")
      allowsDowngrade = arguments.flag("allow-downgrade")
      memoryBudget = try arguments.size("memory-budget") ?? 0
      maxEntries = try arguments.int("max-entries") ?? Self.defaultMaxEntries
      timeout = try arguments.int("timeout") ?? Self.defaultTimeout
    }

    func validate() throws {
      guard memoryBudget > 0 else { throw UsageError.invalid("--memory-budget must be positive") }
      guard maxEntries >= 0 else { throw UsageError.invalid("--max-entries must not be negative") }
      guard timeout > 0 else { throw UsageError.invalid("--timeout must be a positive number of seconds") }
    }

    /// One extension's part of the load.
    private struct Shard {
      let identifier: String
      let file: String
      let candidate: BlobCandidate
      let plan: LoadPlan
      /// The extension's status before the load; `nil` when not installed.
      let status: ExtensionStatus?
      /// The provider state before the load.
      let previous: ProviderState
      /// Where the provider keeps its blobs and state; `nil` until installed.
      let layout: ProviderLayout?
    }

    func run(context: CommandContext) throws {
      let candidates = try files.map(Self.candidate)
      let device = try DeviceSupport.open(devicePath)
      // Every extension this load touches is reserved for the whole
      // command, before anything changes: a concurrent load (or sync) of
      // any of them fails with currentlyLoading instead of mixing its blobs
      // with these, and what is planned here is what the requests see.
      let reservations = try candidates.indices.map { index in
        try DeviceSupport.reserve(device, DeviceSupport.identifier(shard: index + 1))
      }
      defer { reservations.forEach { $0.release() } }
      let shards = try candidates.enumerated().map { index, candidate in
        try preflight(device, shard: index + 1, candidate)
      }
      let settings = ExtensionSettings(
        maximumEntryCount: maxEntries, memoryBudgetBytes: memoryBudget, requestTimeout: Double(timeout))
      let launch = ExtensionLaunch.childProcess(
        executablePath: DeviceSupport.executablePath(),
        arguments: ["device", ExtensionHost.configuration.name] + (allowsDowngrade ? ["--allow-downgrade"] : []))

      var results: [JSONValue] = []
      var failure: (any Error)?
      for (shard, reservation) in zip(shards, reservations) {
        let layout: ProviderLayout
        do {
          layout = try prepare(device, shard, launch: launch, settings: settings)
        } catch {
          failure = error
          break
        }
        let report = reservation.reloadExtension()
        let (state, stateFailure) = Self.recordOutcome(shard, report, in: layout)
        results.append(Self.json(shard, report, state))
        if let error = report.error {
          failure = Self.failure(error, deviceError: report.deviceError, identifier: shard.identifier)
          if !json {
            context.standardError.writeLine("\(shard.identifier): request failed: \(Self.detail(error))")
          }
          break
        }
        if let stateFailure {
          failure = stateFailure
          break
        }
        if !json { context.standardOutput.writeLine(Self.describe(shard, report, state)) }
      }
      if json { context.standardOutput.writeJSONLine(["extensions": .array(results)]) }
      if let failure { throw failure }
    }

    // MARK: - Steps

    /// Reads and validates a FILE's header.
    private static func candidate(_ path: String) throws -> BlobCandidate {
      do {
        return try BlobCandidate(path: path)
      } catch .blobReadFailed(_, let error) {
        throw MappedError(exitCode: ExitCodes.code(for: error), message: error.description)
      } catch .unreadableBlob(_, let error) {
        if case .io = error { throw MappedError(exitCode: ExitCodes.code(for: error), message: error.description) }
        throw MappedError(exitCode: ExitCodes.code(for: error), message: "\(path): \(error)")
      } catch {
        throw MappedError(exitCode: .dataError, message: "\(path): \(error)")
      }
    }

    /// Plans an extension's request exactly as its provider will, to refuse
    /// a blob that does not fit before anything changes.
    private func preflight(_ device: SimulatedDevice, shard: Int, _ candidate: BlobCandidate) throws -> Shard {
      let identifier = DeviceSupport.identifier(shard: shard)
      let status: ExtensionStatus?
      do {
        status = try device.status(forExtensionWithIdentifier: identifier)
      } catch .noSuchExtension {
        status = nil
      } catch {
        throw DeviceSupport.mapped(error)
      }
      let layout = status == nil ? nil : try DeviceSupport.layout(device, identifier)
      let state = try layout.map { try DeviceSupport.providerState(in: $0, identifier) } ?? ProviderState()
      do {
        let plan = try LoadPlanner.plan(
          isIncremental: status?.hasStore ?? false, state: state, candidates: [candidate],
          allowsDowngrade: allowsDowngrade)
        return Shard(
          identifier: identifier, file: candidate.path, candidate: candidate, plan: plan, status: status,
          previous: state, layout: layout)
      } catch .downgrade(let held, let offered) {
        throw MappedError(
          exitCode: .dataError,
          message: "extension \(shard) holds version \(held.version); refusing to load version \(offered.version) "
            + "(older); use --allow-downgrade to load it anyway")
      } catch {
        throw MappedError(exitCode: .dataError, message: "\(identifier): \(candidate.path): \(error)")
      }
    }

    /// Installs or reconfigures the extension and makes FILE its only data.
    ///
    /// - Returns: Where the extension's provider keeps its blobs and state.
    private func prepare(
      _ device: SimulatedDevice, _ shard: Shard, launch: ExtensionLaunch, settings: ExtensionSettings
    ) throws -> ProviderLayout {
      do {
        if let status = shard.status {
          if status.launch != launch { try device.updateLaunch(launch, forExtensionWithIdentifier: shard.identifier) }
          if status.settings != settings {
            try device.updateSettings(settings, forExtensionWithIdentifier: shard.identifier)
          }
        } else {
          try device.installExtension(withIdentifier: shard.identifier, launch: launch, settings: settings)
        }
      } catch {
        throw DeviceSupport.mapped(error)
      }
      let layout = try shard.layout ?? DeviceSupport.layout(device, shard.identifier)
      do {
        try layout.replaceData(withBlobAt: shard.file)
      } catch {
        throw MappedError(exitCode: .ioError, message: "\(shard.identifier): \(error)")
      }
      return layout
    }

    /// Makes the provider state say what the system reported: the plan's
    /// target after a commit, the previous state after a failure (the
    /// extension cannot always record it itself; see
    /// ``ProviderStateStore/recordReloadOutcome(of:previous:committed:)``).
    ///
    /// - Returns: The state the extension now has, and the error to end
    ///   with when it could not be recorded.
    private static func recordOutcome(
      _ shard: Shard, _ report: ReloadReport, in layout: ProviderLayout
    ) -> (ProviderState, (any Error)?) {
      let store = ProviderStateStore(path: layout.statePath)
      do {
        return (
          try store.recordReloadOutcome(of: shard.plan, previous: shard.previous, committed: report.isCommitted), nil
        )
      } catch {
        let expected = report.isCommitted ? ProviderState(loaded: shard.plan.target) : shard.previous
        return (expected, MappedError(exitCode: .ioError, message: "\(shard.identifier): \(error)"))
      }
    }

    // MARK: - Errors

    /// The error the command ends with when a request failed: the device's
    /// own failure (exit 74), the system's refusal (1), or the provider's.
    static func failure(_ error: any Error, deviceError: SimulatedDeviceError?, identifier: String) -> any Error {
      if deviceError != nil, let error = error as? CXErrorCodeCallDirectoryManagerError {
        return MappedError(exitCode: .ioError, message: "\(identifier): \(error.reason ?? error.code.description)")
      }
      if let error = error as? CXErrorCodeCallDirectoryManagerError {
        return MappedError(exitCode: .failure, message: error.code.description)
      }
      if let provider = error as? CallDirectoryProviderError {
        return MappedError(exitCode: exitCode(providerCode: provider.errorCode), message: "\(identifier): \(provider)")
      }
      if let cancelled = error as? ExtensionCancellationError {
        let code = cancelled.domain == CallDirectoryProviderError.errorDomain ? exitCode(providerCode: cancelled.code) : .failure
        return MappedError(exitCode: code, message: "\(identifier): \(cancelled.message)")
      }
      return MappedError(exitCode: .failure, message: "\(identifier): \(error)")
    }

    /// The exit code for a provider refusal, by ``CallDirectoryProviderError/errorCode``.
    static func exitCode(providerCode: Int) -> ExitCode {
      switch providerCode {
      case 1, 2, 3, 4, 9, 10: .dataError  // no usable blob, unreadable, corrupt, digest mismatch, downgrade, bad state
      case 5: .tempFail  // the blob changed meanwhile
      default: .ioError  // state, data directory or blob I/O (6, 7, 8, 11, 12)
      }
    }

    /// A failure's full text, including what the system saw.
    static func detail(_ error: any Error) -> String {
      if let error = error as? ExtensionCancellationError { return error.message }
      return String(describing: error)
    }

    // MARK: - Output

    private static func describe(_ shard: Shard, _ report: ReloadReport, _ state: ProviderState) -> String {
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

    private static func json(_ shard: Shard, _ report: ReloadReport, _ state: ProviderState) -> JSONValue {
      let statistics = report.statistics
      var error: JSONValue = .null
      if let failure = report.error {
        if let system = failure as? CXErrorCodeCallDirectoryManagerError {
          error = [
            "domain": .string(CXErrorCodeCallDirectoryManagerError.errorDomain),
            "code": .string(system.code.name), "rawValue": .int(Int64(system.code.rawValue)),
            "message": .string(system.reason ?? ""),
          ]
        } else if let cancelled = failure as? ExtensionCancellationError {
          error = [
            "domain": .string(cancelled.domain), "rawValue": .int(Int64(cancelled.code)),
            "message": .string(cancelled.message),
          ]
        } else {
          error = ["message": .string(String(describing: failure))]
        }
      }
      func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
      return [
        "identifier": .string(shard.identifier),
        "file": .string(shard.file),
        "strategy": .string(shard.plan.strategy.rawValue),
        "incremental": .bool(report.wasIncremental),
        "version": state.loaded.map { .int(Int64(truncatingIfNeeded: $0.version)) } ?? .null,
        "digest": state.loaded.map { .string($0.digest.hex) } ?? .null,
        "blocking": .int(Int64(report.blockingEntryCount)),
        "identification": .int(Int64(report.identificationEntryCount)),
        "calls": [
          "blockingRemoves": .int(Int64(statistics.blockingRemoves)),
          "identificationRemoves": .int(Int64(statistics.identificationRemoves)),
          "blockingAdds": .int(Int64(statistics.blockingAdds)),
          "identificationAdds": .int(Int64(statistics.identificationAdds)),
          "removeAll": .bool(statistics.removeAllBlockingCalls + statistics.removeAllIdentificationCalls > 0),
        ],
        "peakMemoryBytes": optional(report.childPeakResidentBytes),
        "baselineMemoryBytes": optional(report.childBaselineResidentBytes),
        "durationSeconds": .double((report.duration * 1000).rounded() / 1000),
        "error": error,
      ]
    }
  }
}
