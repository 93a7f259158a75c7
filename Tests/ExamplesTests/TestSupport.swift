@_exported import CalldirTestSupport
import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import ExampleCallDirectoryExtension
import ExampleContainingApp
import Foundation

// MARK: - Blobs

/// Writes `snapshot` as a full snapshot blob with `FullSnapshotWriter`.
@discardableResult
func writeFullSnapshot(_ snapshot: Snapshot, to path: String, dataset: String = "") throws -> BlobHeader {
  let labels = Array(Set(snapshot.identification.map(\.label))).sorted()
  let ids = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($0.element, UInt32($0.offset)) })
  let writer = try FullSnapshotWriter(path: path, version: snapshot.version, labels: labels, dataset: dataset)
  for number in snapshot.blocking { try writer.appendBlocking(number) }
  for entry in snapshot.identification {
    try writer.appendIdentification(entry.number, labelID: ids[entry.label] ?? 0)
  }
  return try writer.finish()
}

/// Writes the delta from `base` to `target` with `DeltaWriter`.
@discardableResult
func writeDelta(from base: Snapshot, to target: Snapshot, path: String, dataset: String = "") throws -> BlobHeader {
  let delta = try SnapshotDelta(from: base, to: target)
  let labels = Array(Set(delta.identificationAdds.map(\.label))).sorted()
  let ids = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($0.element, UInt32($0.offset)) })
  let writer = try DeltaWriter(
    path: path, baseVersion: delta.baseVersion, baseDigest: delta.baseDigest, targetVersion: delta.targetVersion,
    targetDigest: delta.targetDigest, labels: labels, dataset: dataset)
  for number in delta.blockingRemoves { try writer.appendBlockingRemove(number) }
  for number in delta.blockingAdds { try writer.appendBlockingAdd(number) }
  for number in delta.identificationRemoves { try writer.appendIdentificationRemove(number) }
  for entry in delta.identificationAdds { try writer.appendIdentificationAdd(entry.number, labelID: ids[entry.label] ?? 0) }
  return try writer.finish()
}

/// `count` blocking numbers from `start` and half as many identification
/// entries, with emoji and accents among the labels.
func sampleSnapshot(version: UInt64, count: Int, start: Int64) -> Snapshot {
  let labels = ["Spam", "🚫 démarchage", "Bank"]
  let blocking = (0..<Int64(count)).map { start + $0 * 3 }
  let identification = (0..<Int64(count / 2)).map {
    CallDirectoryFormat.IdentificationEntry(number: start + 1 + $0 * 7, label: labels[Int($0) % labels.count])
  }
  return Snapshot(version: version, blocking: blocking, identification: identification)
}

/// The next version of `snapshot`: three blocking numbers gone, one added,
/// one label changed, one identification entry gone.
func nextVersion(of snapshot: Snapshot, addingBlocking added: Int64) -> Snapshot {
  var next = snapshot
  next.version += 1
  next.blocking.removeFirst(3)
  next.blocking.append(added)
  next.blocking.sort()
  next.identification[0].label = "Relabelled"
  next.identification.removeLast()
  return next
}

extension Snapshot {
  /// The entries only (version 0), to compare with what a device holds.
  var entries: Snapshot { Snapshot(blocking: blocking, identification: identification) }

  /// The identity the provider records for this snapshot.
  func identity() throws -> SnapshotIdentity {
    SnapshotIdentity(version: version, digest: try contentDigest())
  }
}

// MARK: - A signature check for tests

/// **Not Ed25519.** A stand-in for the flow tests, clearly fake: it accepts
/// exactly the "signatures" ``fakeSignature(of:publicKey:)`` makes, which
/// are two SHA-256 over the key and the message. It lets the tests sign
/// manifests and prove that a changed manifest, or another key, is refused;
/// it proves nothing about Ed25519 (CryptoKit does that on iOS, libsodium
/// in calldir).
struct FakeSignatureVerifierForTests: SignatureVerifier {
  func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
    signature == fakeSignature(of: message, publicKey: publicKey)
  }
}

/// The 64 bytes ``FakeSignatureVerifierForTests`` accepts for `message` and `publicKey`.
func fakeSignature(of message: [UInt8], publicKey: [UInt8]) -> [UInt8] {
  CallDirectoryFormat.SHA256.hash(publicKey + message) + CallDirectoryFormat.SHA256.hash(message + publicKey)
}

/// Lowercase hexadecimal, as the manifest writes SHA-256s.
func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }.joined()
}

/// The test dataset's "public key".
let testPublicKey = [UInt8](repeating: 0x5A, count: 32)

// MARK: - A published store

/// A store as `calldir build` publishes it, written by hand: per version and
/// extension a full snapshot, deltas from earlier versions, and a signed
/// `manifest.json`.
final class TestStore {
  /// The bounds of the test's two shards.
  static let shardBounds: [(lower: Int64, upper: Int64)] = [
    (1, 39_999_999_999), (40_000_000_000, 999_999_999_999_999),
  ]

  let directory: URL
  let dataset: String
  var fullEvery = 30
  /// Every published version: per extension index, its snapshot.
  private(set) var versions: [Int: [Int: Snapshot]] = [:]

  init(directory: URL, dataset: String = "com.example.blocklist") throws {
    self.directory = directory
    self.dataset = dataset
    for name in ["snapshots", "deltas"] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
    }
  }

  /// Publishes `shards` (extension index → snapshot, all of one version)
  /// with deltas from each earlier version listed in `deltasFrom`, and
  /// writes the manifest and its signature. With `describingContent`, as
  /// `calldir build` does: each extension's content digest and each
  /// delta's adds and removes, and no delta between equal contents.
  func publish(_ shards: [Int: Snapshot], deltasFrom: [Int] = [], describingContent: Bool = false) throws {
    guard let version = shards.values.first.map({ Int($0.version) }) else { return }
    versions[version] = shards
    var extensions: [Manifest.Extension] = []
    for index in shards.keys.sorted() {
      guard let snapshot = shards[index] else { continue }
      let fullPath = "snapshots/snapshot-\(version)-shard-\(index).cdir"
      let full = try writeFullSnapshot(snapshot, to: directory.appendingPathComponent(fullPath).path, dataset: dataset)
      var deltas: [Manifest.Delta] = []
      for from in deltasFrom.sorted(by: >) {
        guard let base = versions[from]?[index] else { continue }
        if describingContent, try base.contentDigest() == full.contentDigest { continue }
        let deltaPath = "deltas/delta-\(from)-\(version)-shard-\(index).cdir"
        let header = try writeDelta(
          from: base, to: snapshot, path: directory.appendingPathComponent(deltaPath).path, dataset: dataset)
        deltas.append(Manifest.Delta(
          from: from, file: try file(deltaPath), adds: describingContent ? Int(header.addedEntries) : nil,
          removes: describingContent ? Int(header.removedEntries) : nil))
      }
      let bounds = Self.shardBounds[index - 1]
      extensions.append(
        Manifest.Extension(
          index: index, lower: bounds.lower, upper: bounds.upper,
          counts: Manifest.Counts(blocking: snapshot.blocking.count, identification: snapshot.identification.count),
          digest: describingContent ? full.contentDigest.hex : nil, full: try file(fullPath), deltas: deltas))
    }
    let manifest = Manifest(
      dataset: dataset, version: version, published: "2026-12-0\(min(version, 9))T03:00:00Z", fullEvery: fullEvery,
      extensions: extensions)
    try writeManifest(manifest.serialized())
  }

  /// Writes `bytes` as `manifest.json`, signed with the test key.
  func writeManifest(_ bytes: [UInt8], signature: [UInt8]? = nil) throws {
    try Data(bytes).write(to: directory.appendingPathComponent("manifest.json"))
    let text = Base64.encode(signature ?? fakeSignature(of: bytes, publicKey: testPublicKey)) + "\n"
    try Data(text.utf8).write(to: directory.appendingPathComponent("manifest.json.sig"))
  }

  /// The manifest entry of a file of the store.
  func file(_ path: String) throws -> Manifest.File {
    let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
    return Manifest.File(path: path, bytes: Int64(bytes.count), sha256: hex(CallDirectoryFormat.SHA256.hash(bytes)))
  }

  /// The path of a published file.
  func url(_ path: String) -> URL { directory.appendingPathComponent(path) }
}

// MARK: - A phone

/// A simulated phone: the app's App Group container, and a simulated device
/// with the app's Call Directory extensions, each served in process by the
/// example ``CallDirectoryHandler`` over that container.
final class TestPhone: @unchecked Sendable {
  let directory: TemporaryDirectory
  let device: SimulatedDevice
  let storage: AppGroupStorage
  let identifiers: [String]

  init(extensions count: Int = 2, settings: ExtensionSettings = ExtensionSettings()) throws {
    directory = try TemporaryDirectory()
    device = try SimulatedDevice(directoryURL: directory.url.appendingPathComponent("device"))
    storage = AppGroupStorage(containerURL: directory.url.appendingPathComponent("group.com.example.blocker"))
    identifiers = (1...count).map { "com.example.blocker.CallDirectory\($0)" }
    for (position, identifier) in identifiers.enumerated() {
      try device.installExtension(withIdentifier: identifier, settings: settings)
      register(identifier, index: position + 1)
    }
  }

  /// Serves `identifier`'s requests with the example handler for extension `index`.
  func register(_ identifier: String, index: Int) {
    let container = storage.containerURL.path
    device.registerProvider(forExtensionWithIdentifier: identifier) {
      CallDirectoryHandler(containerPath: container, extensionIndex: index)
    }
  }

  /// What extension `index` holds, as a snapshot (version 0).
  func held(_ index: Int) throws -> Snapshot {
    let identifier = identifiers[index - 1]
    return Snapshot(
      blocking: try device.blockingEntries(forExtensionWithIdentifier: identifier),
      identification: try device.identificationEntries(forExtensionWithIdentifier: identifier).map {
        CallDirectoryFormat.IdentificationEntry(number: $0.number, label: $0.label)
      })
  }

  /// The provider state extension `index` recorded.
  func providerState(_ index: Int) throws -> ProviderState {
    try ProviderStateStore(path: storage.layout(forExtension: index).statePath).load()
  }

  /// The file names in extension `index`'s data directory.
  func dataFiles(_ index: Int) throws -> [String] {
    let path = storage.layout(forExtension: index).dataDirectory
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Reloads made so far for extension `index`.
  func reloadCount(_ index: Int) throws -> Int {
    try device.status(forExtensionWithIdentifier: identifiers[index - 1]).reloadCount
  }

  /// The example sync over `store`, waits recorded in `sleeps`.
  func sync(
    _ store: TestStore, sleeps: SleepRecorder = SleepRecorder(), extensionCount: Int? = nil,
    publicKey: [UInt8] = testPublicKey, transport: (any DatasetTransport)? = nil, sleep: DatasetSync.Sleep? = nil
  ) -> DatasetSync {
    DatasetSync(
      configuration: .init(extensionIdentifiers: Array(identifiers.prefix(extensionCount ?? identifiers.count))),
      storage: storage,
      transport: transport ?? FileDatasetTransport(storeURL: store.directory),
      trust: ManifestTrust(publicKey: publicKey, verifier: FakeSignatureVerifierForTests()),
      hashing: CalldirSHA256Hashing(),
      callDirectory: CallDirectoryManagerClient(manager: CXCallDirectoryManager(device: device)),
      sleep: sleep ?? { nanoseconds in sleeps.record(nanoseconds) })
  }
}

/// Records the waits a sync asked for, instead of waiting.
final class SleepRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var waits: [UInt64] = []

  func record(_ nanoseconds: UInt64) {
    lock.lock()
    defer { lock.unlock() }
    waits.append(nanoseconds)
  }

  var recorded: [UInt64] {
    lock.lock()
    defer { lock.unlock() }
    return waits
  }
}

/// A file transport that runs `afterRead` after each small file it reads
/// (with the path and how many it read), so that a test can publish
/// between two reads, as a store may while a phone reads it.
final class InterleavingTransport: DatasetTransport, @unchecked Sendable {
  private let inner: FileDatasetTransport
  private let afterRead: (String, Int) throws -> Void
  private let lock = NSLock()
  private(set) var reads: [String] = []

  init(store: TestStore, afterRead: @escaping (String, Int) throws -> Void) {
    inner = FileDatasetTransport(storeURL: store.directory)
    self.afterRead = afterRead
  }

  func contents(of path: String, maximumBytes: Int) async throws -> [UInt8] {
    let bytes = try await inner.contents(of: path, maximumBytes: maximumBytes)
    let count = lock.withLock {
      reads.append(path)
      return reads.count
    }
    try afterRead(path, count)
    return bytes
  }

  func download(_ path: String, to destination: URL) async throws {
    try await inner.download(path, to: destination)
  }
}
