import CallDirectoryFormat
import CallDirectoryProvider
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
    static let defaultNetworkTimeout = TransferLimits.standard.stallSeconds
    /// A day: longer is no timeout, and past libcurl's range.
    static let longestNetworkTimeout = 86_400
    static let defaultMinimumRate = TransferLimits.standard.minimumRate
    /// 1 GiB a second: faster is no link a device has.
    static let fastestMinimumRate = 1 << 30
    /// How often a sync plans and fetches again when the device changed
    /// while it downloaded (another load or sync ran meanwhile).
    static let attempts = 3

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
        manifest anyway), or past its expires. An extension whose content digest is already the one \
        the manifest names for it gets no reload request at all: its recorded version (the sync's \
        and its provider's) moves to the manifest's. Each other extension gets the delta from \
        the version it holds when the manifest has one (and the source has the file) and it \
        reloads no more entries (adds plus removes) than the full snapshot holds, else its full \
        snapshot; after the manifest's fullEvery consecutive incremental syncs, full snapshots. \
        --json reports per extension and in all the entries reloaded and the estimated seconds \
        on a phone (9 µs an entry). Every file is downloaded into \
        DIR/sync/staging and its size and SHA-256 checked against the manifest before anything \
        is loaded; a download cut short is resumed by the next sync (an HTTP Range request) or \
        restarted when the server cannot resume, and one whose bytes do not verify is fetched \
        again from byte 0. A transfer fails when it takes --network-timeout seconds to connect \
        or moves less than --minimum-rate bytes a second over that many seconds; the downloads \
        together get --network-timeout seconds per file plus the files' sizes at --minimum-rate. \
        Nothing is reserved while files download, so a slow server holds no device; then the \
        extensions the sync changes are reserved, the plan is checked against the device again \
        (planned and fetched again if a load or sync changed it meanwhile), the extensions are \
        reloaded through the provider as `device load` does, and only then is the sync state \
        recorded (DIR/sync/state.json; `device status` shows it). \
        Exit status: 0 synced or already up to date; 1 the system failed a request, or \
        another load or sync of the device is loading (currentlyLoading); 65 a bad signature, \
        a malformed or oversized manifest or signature, another dataset, an older or expired \
        manifest, a malformed rollback floor, a file whose size or SHA-256 is not the manifest's \
        (the device unchanged); 66 no public key file, or a public key, manifest or file of a \
        source directory that is not a regular file; 74 the network (a failed, too slow or too \
        long transfer) or the device's I/O failed (nothing is loaded before every file is \
        verified; an extension whose load failed holds the entries its recorded version says, or \
        is recorded as unknown and takes a full snapshot next).
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
          help: "Seconds to connect, and seconds below --minimum-rate, before a transfer fails."),
        .option(
          "minimum-rate", valueName: "bytes-per-second", defaultValue: String(defaultMinimumRate),
          help: "The slowest rate a transfer may keep; also sets the sync's deadline from the files' sizes."),
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
    let minimumRate: Int
    let allowsDowngrade: Bool
    let limits: ExtensionLimits

    init(arguments: ParsedArguments) throws {
      devicePath = try arguments.requiredString("device")
      from = try arguments.requiredString("from")
      publicKeyPath = try arguments.requiredString("public-key")
      json = arguments.flag("json")
      networkTimeout = try arguments.int("network-timeout") ?? Self.defaultNetworkTimeout
      minimumRate = try arguments.int("minimum-rate") ?? Self.defaultMinimumRate
      allowsDowngrade = arguments.flag("allow-downgrade")
      limits = try ExtensionLimits(arguments: arguments)
    }

    func validate() throws {
      guard (1...Self.longestNetworkTimeout).contains(networkTimeout) else {
        throw UsageError.invalid("--network-timeout must be between 1 and \(Self.longestNetworkTimeout) seconds")
      }
      guard (1...Self.fastestMinimumRate).contains(minimumRate) else {
        throw UsageError.invalid("--minimum-rate must be between 1 and \(Self.fastestMinimumRate) bytes a second")
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
        source = try SyncSources.source(for: from)
      } catch {
        throw UsageError.invalid("--from: \(error)")
      }
      let device = try DeviceSupport.open(devicePath)
      let session = SyncSession(
        directory: DeviceSupport.syncDirectory(of: device), source: source,
        trust: ManifestTrust(publicKey: publicKey, verifier: SodiumSignatureVerifier()), hashing: SodiumHashing(),
        limits: TransferLimits(stallSeconds: networkTimeout, minimumRate: minimumRate))
      let loader = DeviceLoader(
        device: device, launch: DeviceSupport.extensionLaunch(allowsDowngrade: allowsDowngrade),
        settings: limits.settings, allowsDowngrade: allowsDowngrade)
      let trusted = try Self.step { () throws(SyncError) in try session.fetchManifest() }
      // Everything is fetched and verified before anything is reserved: a
      // slow server holds no device, and a `device load` or another sync
      // runs meanwhile. Once reserved, the plan is made again; when the
      // device changed, the sync plans (and fetches) again.
      attempts: for _ in 1...Self.attempts {
        let planned = try Self.plan(trusted, session, device, allowingDowngrade: allowsDowngrade)
        // Every extension holds the version, but the record says another:
        // a sync whose loads all ran stopped before recording its state.
        let recordsOnly = planned.isUpToDate && (planned.previous.map { $0.version != trusted.manifest.version } ?? false)
        if planned.isUpToDate && !recordsOnly {
          output(SyncOutcome(planned: planned, staged: nil, results: [:], state: planned.previous), context)
          return
        }
        let staged =
          planned.isUpToDate
          ? nil : try fitted(try Self.step { () throws(SyncError) in try session.stage(planned) }, session, loader)
        // The sync lock, then the extensions the sync changes, for the rest
        // of the command: a concurrent load fails with currentlyLoading
        // instead of changing what was planned.
        let lock = try Self.step { () throws(SyncError) in try session.directory.lock() }
        defer { withExtendedLifetime(lock) {} }
        var reservations: [Int: ExtensionReservation] = [:]
        defer { reservations.values.forEach { $0.release() } }
        for index in planned.changedExtensions {
          reservations[index] = try DeviceSupport.mapped { () throws(DeviceLoadError) in try loader.reserve(extension: index) }
        }
        guard try Self.plan(trusted, session, device, allowingDowngrade: allowsDowngrade) == planned else {
          continue attempts
        }
        guard let staged else {
          let state = try Self.step { () throws(SyncError) in
            try session.record(StagedSync(plan: planned.plan, previous: planned.previous, loads: []))
          }
          output(SyncOutcome(planned: planned, staged: nil, results: [:], state: state), context)
          return
        }
        // Every load is planned before the first one runs: a blob that does
        // not fit an extension changes nothing.
        var loads: [ExtensionLoad] = []
        for load in staged.loads {
          let isDelta = if case .delta = load.content { true } else { false }
          do {
            loads.append(try loader.plan(try DeviceLoader.candidate(load.path), forExtension: load.index))
          } catch .doesNotFit where isDelta {
            // The extension changed since the delta was checked: again.
            continue attempts
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
        // The extensions whose content the version left as it was: no
        // request, their provider state takes the version, so that the
        // next build's delta from it applies.
        for item in staged.plan.unchanged {
          guard let reservation = reservations[item.index], let target = Self.identity(of: item, staged.plan) else {
            continue attempts
          }
          let recorded = try DeviceSupport.mapped { () throws(DeviceLoadError) in
            try loader.recordSameContent(extension: item.index, as: target, under: reservation)
          }
          // The extension no longer holds the content (it cannot change
          // under the reservation, but a sync never records what is not so).
          guard recorded != nil else { continue attempts }
        }
        let state = try Self.step { () throws(SyncError) in try session.record(staged) }
        output(SyncOutcome(planned: planned, staged: staged, results: results, state: state), context)
        return
      }
      throw SyncFailure(.busy(path: session.directory.lockPath))
    }

    /// The sync of `trusted` planned against the device: its sync state,
    /// corrected by what each extension holds by its own record (a `device
    /// load` outside the sync may have changed it; one not installed holds
    /// nothing).
    private static func plan(
      _ trusted: TrustedManifest, _ session: SyncSession, _ device: SimulatedDevice, allowingDowngrade: Bool
    ) throws -> PlannedSync {
      var held = try DeviceSupport.mapped { () throws(DeviceLoadError) in try heldSnapshots(device) }
      // An extension of the manifest that is not installed holds nothing.
      for item in trusted.manifest.extensions where held.index(forKey: item.index) == nil {
        held.updateValue(nil, forKey: item.index)
      }
      return try step { () throws(SyncError) in
        try session.plan(trusted, held: held, allowingDowngrade: allowingDowngrade)
      }
    }

    /// `staged` with the full snapshot (fetched now, before anything is
    /// reserved) for each extension that cannot apply its delta although
    /// it holds the delta's base version: the outcome of its last request
    /// was never recorded, or it holds other content under that version
    /// (the store was rebuilt). Without it the device would try the same
    /// delta at every sync. Any other refusal is the loads' to report.
    private func fitted(_ staged: StagedSync, _ session: SyncSession, _ loader: DeviceLoader) throws -> StagedSync {
      var staged = staged
      for load in staged.loads {
        guard case .delta = load.content else { continue }
        do {
          _ = try loader.plan(try DeviceLoader.candidate(load.path), forExtension: load.index)
        } catch .doesNotFit(_, _, let problem) {
          staged = try Self.step { () throws(SyncError) in
            try session.fallBackToFull(extension: load.index, in: staged, because: problem.description)
          }
        } catch {
          continue
        }
      }
      return staged
    }

    /// The snapshot each installed extension holds by its provider's state
    /// (version and content digest), by index. When its last request's
    /// outcome is unknown, the version it held before with no digest: it
    /// is never judged unchanged, the delta from that version is planned
    /// and its provider refuses it, so the sync loads the full snapshot
    /// and says why (``fitted(_:_:_:)``); nil when it held nothing.
    private static func heldSnapshots(_ device: SimulatedDevice) throws(DeviceLoadError) -> [Int: HeldSnapshot?] {
      let identifiers: [String]
      do {
        identifiers = try device.installedExtensionIdentifiers()
      } catch {
        throw .device(error)
      }
      var held: [Int: HeldSnapshot?] = [:]
      for identifier in identifiers {
        guard let index = CalldirExtensions.index(of: identifier) else { continue }
        let state = try DeviceLoader.providerState(in: try DeviceLoader.layout(device, identifier), identifier)
        if let snapshot = state.heldSnapshot {
          held[index] = HeldSnapshot(version: Int(clamping: snapshot.version), digest: snapshot.digest.hex)
        } else {
          let before = state.loaded.map { HeldSnapshot(version: Int(clamping: $0.version), digest: nil) }
          held.updateValue(before, forKey: index)
        }
      }
      return held
    }

    /// The snapshot an unchanged extension holds once the sync records it:
    /// the manifest's version, with its content digest.
    private static func identity(of item: Manifest.Extension, _ plan: SyncPlan) -> SnapshotIdentity? {
      guard let hex = item.digest, let digest = ContentDigest(hex: hex) else { return nil }
      return SnapshotIdentity(version: UInt64(plan.manifest.manifest.version), digest: digest)
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
