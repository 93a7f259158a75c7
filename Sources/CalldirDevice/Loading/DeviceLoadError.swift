import CallDirectoryProvider
import CallKitMock

/// Why a load of blobs into a simulated device's extensions stopped. A
/// refusal before any request (a blob that is unreadable, older than held,
/// or does not fit) changes nothing; a failed request leaves its extension
/// with the entries and loaded version it had (or, when even recording
/// that failed, its provider state pending: unknown, so the next load
/// resets); ``notDurable(identifier:_:)`` leaves the new entries and
/// version, recorded.
public enum DeviceLoadError: Error, CustomStringConvertible {
  /// A blob's header could not be read, or is invalid
  /// (``CallDirectoryProviderError/unreadableBlob(path:_:)`` or
  /// ``CallDirectoryProviderError/blobReadFailed(path:_:)``).
  case unreadableBlob(path: String, CallDirectoryProviderError)
  /// A blob is older than the version its extension holds, and downgrades
  /// are not allowed.
  case downgrade(extension: Int, held: SnapshotIdentity, offered: SnapshotIdentity)
  /// A blob does not fit the extension (a delta on another base, or for an
  /// extension that holds nothing).
  case doesNotFit(identifier: String, path: String, CallDirectoryProviderError)
  /// The device could not be read or changed (installing, reconfiguring).
  case device(SimulatedDeviceError)
  /// Another load (or sync) of the extension is running.
  case currentlyLoading(identifier: String)
  /// The provider's files in the extension's container could not be read
  /// or written: its state, or the blob placed for it.
  case providerStorage(identifier: String, CallDirectoryProviderError)
  /// The request failed: the system refused it, the provider cancelled it,
  /// or the device's own storage failed (`deviceError`).
  case requestFailed(identifier: String, any Error, deviceError: SimulatedDeviceError?)
  /// The request committed and the extension holds its entries (its
  /// provider state says so), but the device could not make them durable
  /// (``ReloadReport/durabilityError``).
  case notDurable(identifier: String, SimulatedDeviceError)

  public var description: String {
    switch self {
    case .unreadableBlob(_, let error): error.description
    case .downgrade(let index, let held, let offered):
      "extension \(index) holds version \(held.version); refusing to load version \(offered.version) (older)"
    case .doesNotFit(let identifier, let path, let error): "\(identifier): \(path): \(error)"
    case .device(let error): error.description
    case .currentlyLoading(let identifier): "\(identifier): currentlyLoading"
    case .providerStorage(let identifier, let error): "\(identifier): \(error)"
    case .requestFailed(let identifier, let error, _): "\(identifier): \(error)"
    case .notDurable(let identifier, let error): "\(identifier): \(error)"
    }
  }
}
