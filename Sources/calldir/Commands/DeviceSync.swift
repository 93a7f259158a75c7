import CallDirectorySync
import CallKitMock
import CalldirDevice
import CalldirSystem
import CalldirTransport
import CommandLineKit
import Sodium

extension Calldir.Device {
  /// `calldir device sync`: what a blocker's containing app does to bring
  /// its extensions to a store's latest version.
  struct Sync: RunnableCommand {
    static let defaultNetworkTimeout = 30
    /// A day: longer is no timeout, and past libcurl's range.
    static let longestNetworkTimeout = 86_400

    static let configuration = CommandConfiguration(
      name: "sync",
      abstract: "Bring a simulated device to a store's latest version from its signed manifest, as an app would.",
      discussion: """
        Fetches manifest.json and manifest.json.sig from --from (the store's directory, a copy \
        of it, or an http:// or https:// URL of one), verifies the Ed25519 signature with the \
        public key, and refuses a manifest of another dataset than the device follows (a first \
        sync adopts the manifest's; `calldir device reset` forgets it) or older than the version \
        it holds or than its rollback floor, the highest version of the dataset it ever accepted \
        (DIR/rollback-floor.json, which a reset keeps; --allow-downgrade installs an older \
        manifest anyway), or past its expires. Each extension then gets the delta from the version it holds when the manifest \
        has one (and the source has the file), else its full snapshot; after the manifest's \
        fullEvery consecutive incremental syncs, full snapshots. Every file is downloaded into \
        DIR/sync/staging and its size and SHA-256 checked against the manifest before anything \
        is loaded; a download cut short is resumed by the next sync (an HTTP Range request) or \
        restarted when the server cannot resume. The extensions are then reloaded through the \
        provider as `device load` does, reserved for the whole command, and only then is the \
        sync state recorded (DIR/sync/state.json; `device status` shows it). \
        Exit status: 0 synced or already up to date; 1 the system failed a request, or \
        another load or sync of the device runs (currentlyLoading); 65 a bad signature, \
        another dataset, an older or expired manifest, a malformed rollback floor, a file whose size or \
        SHA-256 is not the manifest's (the device unchanged); 66 no public key file; 74 the network or \
        the device's I/O failed (nothing is loaded before every file is verified; an extension whose \
        load failed holds the entries its recorded version says, or is recorded as unknown and takes \
        a full snapshot next).
        """,
      arguments: [
        .option("device", valueName: "dir", isRequired: true, help: "The simulated device's directory (created when missing)."),
        .option(
          "from", valueName: "dir-or-url", isRequired: true,
          help: "The store: a directory holding manifest.json, or its http:// or https:// URL."),
        .option(
          "public-key", valueName: "file", isRequired: true,
          help: "The store's Ed25519 public key: one line of base64 of its 32 bytes (keygen's PREFIX.pub)."),
        .flag("json", help: "Print one JSON object describing the sync."),
        .option(
          "network-timeout", valueName: "seconds", defaultValue: String(defaultNetworkTimeout),
          help: "Seconds without a byte from the server before a transfer fails."),
        .flag(
          "allow-downgrade",
          help: "Install a manifest older than the synced version or the device's rollback floor (and its blobs)."),
      ] + ExtensionLimits.arguments
    )

    let devicePath: String
    let from: String
    let publicKeyPath: String
    let json: Bool
    let networkTimeout: Int
    let allowsDowngrade: Bool
    let limits: ExtensionLimits

    init(arguments: ParsedArguments) throws {
      devicePath = try arguments.requiredString("device")
      from = try arguments.requiredString("from")
      publicKeyPath = try arguments.requiredString("public-key")
      json = arguments.flag("json")
      networkTimeout = try arguments.int("network-timeout") ?? Self.defaultNetworkTimeout
      allowsDowngrade = arguments.flag("allow-downgrade")
      limits = try ExtensionLimits(arguments: arguments)
    }

    func validate() throws {
      guard (1...Self.longestNetworkTimeout).contains(networkTimeout) else {
        throw UsageError.invalid("--network-timeout must be between 1 and \(Self.longestNetworkTimeout) seconds")
      }
      try limits.validate()
    }

    /// What the refusal of a blob older than an extension holds advises
    /// (never a reset: the extensions may hold the newer version of this
    /// very dataset, and the manifest be a replay).
    static let downgradeAdvice =
      "a replay of an older manifest, or another store's data; 'calldir device sync --allow-downgrade' installs it anyway"

    func run(context: CommandContext) throws {
      do {
        try sync(context)
      } catch {
        if json { context.standardOutput.writeJSONLine(Self.errorJSON(error)) }
        throw error
      }
    }

    private func sync(_ context: CommandContext) throws {
      let publicKey = try PublicKeyFile.read(publicKeyPath)
      let source: any SyncSource
      do {
        source = try SyncSources.source(for: from, timeout: Double(networkTimeout))
      } catch {
        throw UsageError.invalid("--from: \(error)")
      }
      let device = try DeviceSupport.open(devicePath)
      let session = SyncSession(
        directory: DeviceSupport.syncDirectory(of: device), source: source,
        trust: ManifestTrust(publicKey: publicKey, verifier: SodiumSignatureVerifier()), hashing: SodiumHashing())
      let lock = try Self.step { () throws(SyncError) in try session.directory.lock() }
      defer { withExtendedLifetime(lock) {} }
      // What each extension holds by its own record corrects the sync's:
      // a `device load` outside the sync may have changed it.
      let held = try DeviceSupport.mapped { () throws(DeviceLoadError) in try Self.heldVersions(device) }
      let planned = try Self.step { () throws(SyncError) in
        try session.plan(held: held, allowingDowngrade: allowsDowngrade)
      }
      guard !planned.isUpToDate else {
        // Every extension holds the version, but the record says another:
        // a sync whose loads all ran stopped before recording its state.
        var state = planned.previous
        if let previous = planned.previous, previous.version != planned.plan.manifest.manifest.version {
          state = try Self.step { () throws(SyncError) in
            try session.record(StagedSync(plan: planned.plan, previous: previous, loads: []))
          }
        }
        output(SyncOutcome(planned: planned, staged: nil, results: [:], state: state), context)
        return
      }
      let loader = DeviceLoader(
        device: device, launch: DeviceSupport.extensionLaunch(allowsDowngrade: allowsDowngrade),
        settings: limits.settings, allowsDowngrade: allowsDowngrade)
      // The extensions the sync changes are reserved before anything is
      // fetched, for the whole command: a concurrent load fails with
      // currentlyLoading instead of changing what was planned.
      var reservations: [Int: ExtensionReservation] = [:]
      defer { reservations.values.forEach { $0.release() } }
      for index in planned.changedExtensions {
        reservations[index] = try DeviceSupport.mapped { () throws(DeviceLoadError) in try loader.reserve(extension: index) }
      }
      var staged = try Self.step { () throws(SyncError) in try session.stage(planned) }
      // Every load is planned before the first one runs: a blob that does
      // not fit an extension changes nothing. An extension that cannot
      // apply its delta (the outcome of its last request was never
      // recorded, or it holds other content under the delta's base
      // version) loads the full snapshot instead.
      var loads: [ExtensionLoad] = []
      for load in staged.loads {
        func plan(_ path: String) throws(DeviceLoadError) -> ExtensionLoad {
          try loader.plan(try DeviceLoader.candidate(path), forExtension: load.index)
        }
        let isDelta = if case .delta = load.content { true } else { false }
        do {
          loads.append(try plan(load.path))
        } catch .doesNotFit(_, _, let problem) where isDelta {
          staged = try Self.step { () throws(SyncError) in
            try session.fallBackToFull(extension: load.index, in: staged, because: problem.description)
          }
          let path = staged.loads.first { $0.index == load.index }?.path ?? load.path
          loads.append(
            try DeviceSupport.mapped(downgradeAdvice: Self.downgradeAdvice) { () throws(DeviceLoadError) in try plan(path) })
        } catch {
          throw DeviceSupport.mapped(error, downgradeAdvice: Self.downgradeAdvice)
        }
      }
      var results: [Int: ExtensionLoadResult] = [:]
      for load in loads {
        guard let reservation = reservations[load.index] else { continue }
        let result = try DeviceSupport.mapped { () throws(DeviceLoadError) in try loader.load(load, under: reservation) }
        if let error = result.report.error, !json {
          context.standardError.writeLine("\(load.identifier): request failed: \(DeviceSupport.detail(error))")
        }
        if let failure = result.failure { throw DeviceSupport.mapped(failure, downgradeAdvice: Self.downgradeAdvice) }
        results[load.index] = result
      }
      let state = try Self.step { () throws(SyncError) in try session.record(staged) }
      output(SyncOutcome(planned: planned, staged: staged, results: results, state: state), context)
    }

    /// The version each installed extension holds by its provider's state,
    /// by index; nil when its last request's outcome is unknown.
    private static func heldVersions(_ device: SimulatedDevice) throws(DeviceLoadError) -> [Int: Int?] {
      let identifiers: [String]
      do {
        identifiers = try device.installedExtensionIdentifiers()
      } catch {
        throw .device(error)
      }
      var held: [Int: Int?] = [:]
      for identifier in identifiers {
        guard let index = CalldirExtensions.index(of: identifier) else { continue }
        let state = try DeviceLoader.providerState(in: try DeviceLoader.layout(device, identifier), identifier)
        held[index] = state.heldSnapshot.map { Int(clamping: $0.version) }
      }
      return held
    }

    /// Runs a step of the sync, ending the command with its error's exit code.
    private static func step<T>(_ body: () throws(SyncError) -> T) throws -> T {
      do {
        return try body()
      } catch {
        throw SyncFailure(error)
      }
    }

    private func output(_ outcome: SyncOutcome, _ context: CommandContext) {
      if json {
        context.standardOutput.writeJSONLine(outcome.json)
      } else {
        outcome.describe(to: context.standardOutput)
      }
    }
  }
}

extension Calldir.Device.Sync {
  /// `{"error": {"kind", "message"}}`, what `--json` prints when the sync fails.
  static func errorJSON(_ error: any Error) -> JSONValue {
    let kind: String
    switch error {
    case let failure as SyncFailure: kind = failure.kind
    case is UsageError: kind = "usage"
    default: kind = "device"
    }
    let message = (error as? any CommandLineError)?.message ?? String(describing: error)
    return ["error": ["kind": .string(kind), "message": .string(message)]]
  }
}
