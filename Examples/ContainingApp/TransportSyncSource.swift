import CallDirectorySync
import Foundation

/// The engine's ``SyncSource`` over the app's ``DatasetTransport``: the
/// manifest and its signature read whole (``DatasetTransport/contents(of:maximumBytes:)``),
/// every other file downloaded to a file in the App Group container, then
/// streamed into the staging area, which checks its size and SHA-256.
struct TransportSyncSource: SyncSource {
  let transport: any DatasetTransport
  /// The largest manifest accepted, in bytes.
  let maximumManifestBytes: Int
  /// Where a download waits while the staging area reads it.
  let downloads: URL

  var name: String { "the dataset server" }

  func fetch(_ path: String, limit: Int, within bounds: TransferBounds) async throws(SyncSourceError) -> [UInt8] {
    let limit = path == SyncSession.manifestPath ? min(limit, maximumManifestBytes) : limit
    do {
      return try await transport.contents(of: path, maximumBytes: limit)
    } catch DatasetTransportError.tooLarge {
      throw .tooLarge(path: path, limit: limit)
    } catch {
      throw Self.failure(path, error)
    }
  }

  /// Downloads the whole file (a transport does not resume) and hands its
  /// bytes to the staging area in 1 MiB pieces.
  func download(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) async throws(SyncSourceError) {
    let url = downloads.appendingPathComponent(UUID().uuidString + ".part")
    defer { try? FileManager.default.removeItem(at: url) }
    do {
      try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
      try await transport.download(path, to: url)
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      guard receiver.start(at: 0) else { return }
      while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
        guard piece.withUnsafeBytes({ receiver.receive($0) }) else { return }
      }
    } catch {
      throw Self.failure(path, error)
    }
  }

  /// A transfer that failed: its reason as the app reports it
  /// (``DatasetSyncError/transport(path:reason:)``); a cancelled task says so.
  private static func failure(_ path: String, _ error: any Error) -> SyncSourceError {
    .failed(path: path, reason: error is CancellationError ? cancelledReason : String(describing: error))
  }

  /// The reason of a transfer whose task was cancelled.
  static let cancelledReason = "the task was cancelled"
}
