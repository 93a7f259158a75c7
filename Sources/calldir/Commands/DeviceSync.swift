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
    static let configuration = CommandConfiguration(
      name: "sync",
      abstract: "Bring a simulated device to a store's latest version from its signed manifest, as an app would.",
      discussion: """
        Fetches manifest.json and manifest.json.sig from --from (the store's directory, a copy of \
        it, or an http:// or https:// URL of one), verifies the Ed25519 signature with the public \
        key, and refuses a manifest of another dataset than the device follows (a first sync \
        adopts the manifest's; `calldir device reset` forgets it) or older than the version it \
        holds or than its rollback floor, the highest version of the dataset it ever accepted \
        (DIR/rollback-floor.json, which a reset keeps; --allow-downgrade installs an older \
        manifest anyway), or past its expires.

        An extension whose content digest is already the one the manifest names for it gets no \
        reload request at all: its recorded version (the sync's and its provider's) moves to the \
        manifest's.

        Each other extension gets the delta from the version it holds when the manifest has one \
        (and the source has the file) and it reloads no more entries (adds plus removes) than the \
        full snapshot holds, else its full snapshot; after the manifest's fullEvery consecutive \
        incremental syncs, full snapshots.

        --json reports per extension and in all the entries reloaded and the estimated seconds on \
        a phone (9 µs an entry).

        Every file is downloaded into DIR/sync/staging and its size and SHA-256 checked against \
        the manifest before anything is loaded; a download cut short is resumed by the next sync \
        (an HTTP Range request) or restarted when the server cannot resume, and one whose bytes do \
        not verify is fetched again from byte 0.

        A transfer fails when it takes --network-timeout seconds to connect or moves less than \
        --minimum-rate bytes a second over that many seconds; the downloads together get \
        --network-timeout seconds per file plus the files' sizes at --minimum-rate.

        Nothing is reserved while files download, so a slow server holds no device; then the \
        extensions the sync changes are reserved, the plan is checked against the device again \
        (planned and fetched again if a load or sync changed it meanwhile), the extensions are \
        reloaded through the provider as `device load` does, and only then is the sync state \
        recorded (DIR/sync/state.json; `device status` shows it).
        """,
      exitStatuses: [
        .init(.success, "Synced, or already up to date."),
        .init(.failure, "The system failed a request, or another load or sync of the device is loading (currentlyLoading)."),
        .init(.dataError, "A bad signature, a malformed or oversized manifest or signature, another dataset, an older or expired manifest, a malformed rollback floor, or a file whose size or SHA-256 is not the manifest's (the device unchanged)."),
        .init(.noInput, "No public key file, or a public key, manifest or file of a source directory that is not a regular file."),
        .init(.ioError, "The network (a failed, too slow or too long transfer) or the device's I/O failed: nothing is loaded before every file is verified; an extension whose load failed holds the entries its recorded version says, or is recorded as unknown and takes a full snapshot next."),
      ],
      examples: [
        .init("Sync a device from a store on disk.", "calldir device sync --device out/phone --from out/store --public-key out/store-key.pub"),
        .init("Sync from a web server, as JSON.", "calldir device sync --device out/phone --from https://lists.example.org/calldir --public-key calldir.pub --json"),
      ],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
        .init("Publishing nightly", "guides/nightly-publishing.md"),
      ]
    )

    @Option(.device, help: "The simulated device's directory (created when missing).")
    var devicePath: String
    @Option(valueName: "dir-or-url", help: "The store: a directory holding manifest.json, or its http:// or https:// URL.")
    var from: String
    @Option(
      name: "public-key", valueName: "file",
      help: "The store's Ed25519 public key: one line of base64 of its 32 bytes (keygen's PREFIX.pub).")
    var publicKeyPath: String
    @Flag(.json, help: "Print one JSON object describing the sync.")
    var json: Bool
    @Option(
      valueName: "seconds", help: "Seconds to connect, and seconds below --minimum-rate, before a transfer fails.",
      range: 1...Sync.longestNetworkTimeout,
      outOfRange: { _ in "--network-timeout must be between 1 and \(Sync.longestNetworkTimeout) seconds" })
    var networkTimeout = Sync.defaultNetworkTimeout
    @Option(
      valueName: "bytes-per-second",
      help: "The slowest rate a transfer may keep; also sets the sync's deadline from the files' sizes.",
      range: 1...Sync.fastestMinimumRate,
      outOfRange: { _ in "--minimum-rate must be between 1 and \(Sync.fastestMinimumRate) bytes a second" })
    var minimumRate = Sync.defaultMinimumRate
    @Flag(
      .allowDowngrade,
      help: "Install a manifest older than the synced version or the device's rollback floor (and its blobs).")
    var allowsDowngrade: Bool
    @OptionGroup
    var limits: ExtensionLimits

    /// Options → the sync engine (``SyncCoordinator``) over the store and
    /// the simulated device → output.
    func run(context: CommandContext) throws {
      let publicKey = try PublicKeyFile.read(publicKeyPath)
      let source: any SyncSource
      do {
        source = try SyncSources.source(for: from)
      } catch {
        throw UsageError.invalid("--from: \(error)")
      }
      let device: SimulatedDevice
      do {
        device = try DeviceSupport.open(devicePath)
      } catch {
        throw SyncRunError<DeviceLoadError>.device(.device(error))
      }
      let session = SyncSession(
        directory: DeviceSupport.syncDirectory(of: device), source: source,
        trust: ManifestTrust(publicKey: publicKey, verifier: SodiumSignatureVerifier()), hashing: SodiumHashing(),
        limits: TransferLimits(stallSeconds: networkTimeout, minimumRate: minimumRate))
      let loader = DeviceLoader(
        device: device, launch: DeviceSupport.extensionLaunch(allowsDowngrade: allowsDowngrade),
        settings: limits.settings, allowsDowngrade: allowsDowngrade)
      let json = json
      let reloader = DeviceSyncReloader(loader: loader) { identifier, error in
        if !json { context.standardError.writeLine("\(identifier): request failed: \(DeviceSupport.detail(error))") }
      }
      let run = try SyncCoordinator(session: session, reloader: reloader, allowsDowngrade: allowsDowngrade)
        .runToCompletion()
      output(SyncOutcome(planned: run.planned, staged: run.staged, results: run.results, state: run.state), context)
    }

    private func output(_ outcome: SyncOutcome, _ context: CommandContext) {
      if json {
        context.standardOutput.writeJSONLine(outcome)
      } else {
        outcome.describe(to: context.standardOutput)
      }
    }
  }
}
