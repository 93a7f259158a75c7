import Foundation

/// Fetches the files of a published store by their paths relative to it:
/// `manifest.json`, `manifest.json.sig`, and the `snapshots/…` and
/// `deltas/…` the manifest names (already checked to be safe relative
/// paths by ``Manifest``'s reader).
///
/// Nothing a transport returns is trusted: the manifest is checked against
/// its signature, every other file against the manifest's size and SHA-256.
public protocol DatasetTransport: Sendable {
  /// The whole of a small file (the manifest, its signature).
  ///
  /// - Throws: ``DatasetTransportError/tooLarge(path:limit:)`` for a file
  ///   larger than `maximumBytes`, or the transport's own error.
  func contents(of path: String, maximumBytes: Int) async throws -> [UInt8]

  /// Downloads a file to `destination`, a path that does not exist yet, in
  /// the App Group container.
  func download(_ path: String, to destination: URL) async throws
}

/// Why a transport could not deliver a file.
public enum DatasetTransportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is larger than the caller accepts.
  case tooLarge(path: String, limit: Int)
  /// The server answered with another status than 200.
  case httpStatus(path: String, status: Int)

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .tooLarge(let path, let limit): "\(path) is larger than \(limit) bytes"
    case .httpStatus(let path, let status): "\(path): HTTP status \(status)"
    }
  }
}

/// A store on a file system: a directory holding `manifest.json` and the
/// rest, as `calldir build` publishes it (tests, tools, a store synced by
/// other means).
public struct FileDatasetTransport: DatasetTransport {
  /// The store's directory.
  public let storeURL: URL

  /// A transport over the store in `storeURL`.
  public init(storeURL: URL) {
    self.storeURL = storeURL
  }

  public func contents(of path: String, maximumBytes: Int) async throws -> [UInt8] {
    let url = storeURL.appendingPathComponent(path)
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
    guard let size, size.int64Value <= Int64(maximumBytes) else {
      throw DatasetTransportError.tooLarge(path: path, limit: maximumBytes)
    }
    let data = try Data(contentsOf: url)
    guard data.count <= maximumBytes else { throw DatasetTransportError.tooLarge(path: path, limit: maximumBytes) }
    return Array(data)
  }

  public func download(_ path: String, to destination: URL) async throws {
    try FileManager.default.copyItem(at: storeURL.appendingPathComponent(path), to: destination)
  }
}
