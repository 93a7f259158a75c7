@_exported import CalldirTestSupport
import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation

// The mock's context has CallKit's method names, so it conforms as is.
extension CXCallDirectoryExtensionContext: CallDirectoryRequestContext {}

// Stable domain and code when a provider error is bridged (as the CLI does).
extension CallDirectoryProviderError: CustomNSError {}

/// The provider under test, as an extension would host it.
final class LoaderProvider: CXCallDirectoryProvider {
  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    CallDirectoryLoader(layout: ProviderLayout(containerPath: context.simulatedAppGroupContainerURL.path))
      .serve(context)
  }
}

/// One in-process extension on a simulated device, served by ``LoaderProvider``.
final class Harness {
  let directory: TemporaryDirectory
  let device: SimulatedDevice
  let identifier: String
  let layout: ProviderLayout

  init(identifier: String = "calldir.test", settings: ExtensionSettings = ExtensionSettings()) throws {
    directory = try TemporaryDirectory()
    device = try SimulatedDevice(directoryURL: directory.url.appendingPathComponent("device"))
    self.identifier = identifier
    try device.installExtension(withIdentifier: identifier, settings: settings)
    device.registerProvider(forExtensionWithIdentifier: identifier) { LoaderProvider() }
    layout = ProviderLayout(containerPath: try device.appGroupContainerURL(forExtensionWithIdentifier: identifier).path)
    try FileManager.default.createDirectory(atPath: layout.dataDirectory, withIntermediateDirectories: true)
  }

  /// Makes `blobs` (name → bytes) the extension's only data.
  func setData(_ blobs: [(String, [UInt8])]) throws {
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: layout.dataDirectory) {
      try manager.removeItem(atPath: layout.dataDirectory + "/" + name)
    }
    for (name, bytes) in blobs {
      try Data(bytes).write(to: URL(fileURLWithPath: layout.dataDirectory + "/" + name))
    }
  }

  /// Sets the data and reloads.
  @discardableResult
  func load(_ blobs: [(String, [UInt8])]) throws -> ReloadReport {
    try setData(blobs)
    return device.reloadExtension(withIdentifier: identifier)
  }

  /// What the system holds, as a snapshot (version 0).
  func held() throws -> Snapshot {
    Snapshot(
      blocking: try device.blockingEntries(forExtensionWithIdentifier: identifier),
      identification: try device.identificationEntries(forExtensionWithIdentifier: identifier).map {
        CallDirectoryFormat.IdentificationEntry(number: $0.number, label: $0.label)
      })
  }

  /// The provider state.
  func state() throws -> ProviderState {
    try ProviderStateStore(path: layout.statePath).load()
  }

  /// The store file's bytes (empty when there is none).
  func storeBytes() throws -> Data {
    let url = try device.storeFileURL(forExtensionWithIdentifier: identifier)
    return (try? Data(contentsOf: url)) ?? Data()
  }
}

extension Snapshot {
  /// The identity of this snapshot.
  func identity() throws -> SnapshotIdentity {
    SnapshotIdentity(version: version, digest: try contentDigest())
  }

  /// The entries only (version 0), to compare with ``Harness/held()``.
  var entries: Snapshot { Snapshot(blocking: blocking, identification: identification) }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A sample snapshot: `count` blocking numbers and `count / 2` identification entries.
func sampleSnapshot(version: UInt64, count: Int, start: Int64 = 33_612_000_000, labels: [String] = ["Spam", "🚫 démarchage", "Bank"]) -> Snapshot {
  let blocking = (0..<Int64(count)).map { start + $0 * 3 }
  let identification = (0..<Int64(count / 2)).map {
    CallDirectoryFormat.IdentificationEntry(number: start + 1 + $0 * 7, label: labels[Int($0) % labels.count])
  }
  return Snapshot(version: version, blocking: blocking, identification: identification)
}
