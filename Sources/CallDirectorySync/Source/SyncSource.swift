/// Where a device fetches a store's files from: the store's directory, or
/// any static host holding copies of its `manifest.json*`, `snapshots/` and
/// `deltas/` (paths are the manifest's, relative to the store).
///
/// The app implements it with its HTTP client (URLSession on iOS, with a
/// `Range` header to resume: the example app's `TransportSyncSource`);
/// `calldir device sync` has one for plain directories and one for
/// `http(s)://` URLs, whose calls block until done (a synchronous method
/// meets the `async` requirement). Calls keep to the ``TransferBounds``
/// they are given: a server that stalls or drips bytes fails the call,
/// never holds it past the deadline.
public protocol SyncSource: Sendable {
  /// A short name for messages: the directory or the base URL (without
  /// credentials).
  var name: String { get }

  /// Streams a file into `receiver`, from byte `offset` on when the source
  /// can (an HTTP `Range: bytes=offset-` request answered 206), else from
  /// the start: it first calls ``DownloadReceiver/start(at:)`` with where
  /// the bytes begin, then ``DownloadReceiver/receive(_:)`` as they arrive.
  /// When the receiver returns `false` (it has failed and knows why), the
  /// download stops and the call returns normally.
  ///
  /// - Parameter bounds: The connect and minimum-rate limits, and the
  ///   deadline by which the call returns (failing the transfer).
  /// - Throws: ``SyncSourceError`` when the file is missing, is not a
  ///   regular file, or the transfer fails (a dropped connection, too slow,
  ///   past the deadline); the bytes received stay received.
  func download(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) async throws(SyncSourceError)

  /// The whole of a small file (the manifest, its signature). The default
  /// reads it with ``download(_:from:within:into:)``; a source with its own
  /// way to read a small file (the app's transport) gives it here.
  ///
  /// - Parameter limit: The most bytes accepted; a larger file is refused
  ///   as soon as its bytes pass the limit.
  /// - Throws: ``SyncSourceError``; ``SyncSourceError/tooLarge(path:limit:)``
  ///   for a file larger than `limit`.
  func fetch(_ path: String, limit: Int, within bounds: TransferBounds) async throws(SyncSourceError) -> [UInt8]
}

extension SyncSource {
  /// The whole of a small file (the manifest, its signature), read with
  /// ``download(_:from:within:into:)``.
  ///
  /// - Parameter limit: The most bytes accepted; a larger file is refused
  ///   as soon as its bytes pass the limit.
  /// - Throws: ``SyncSourceError``; ``SyncSourceError/tooLarge(path:limit:)``
  ///   for a file larger than `limit`.
  public func fetch(_ path: String, limit: Int, within bounds: TransferBounds) async throws(SyncSourceError) -> [UInt8] {
    let receiver = _MemoryReceiver(limit: limit, deadline: bounds)
    try await download(path, from: 0, within: bounds, into: receiver)
    if receiver.isTooLarge { throw .tooLarge(path: path, limit: limit) }
    if receiver.isPastDeadline { throw .failed(path: path, reason: bounds.expiryReason) }
    return receiver.bytes
  }
}

/// Takes a file's bytes as a ``SyncSource`` delivers them.
public protocol DownloadReceiver: AnyObject {
  /// Where the bytes about to arrive start in the file: the offset asked
  /// for, or 0 when the source restarts from the beginning.
  /// - Returns: `false` to stop the download.
  func start(at offset: Int64) -> Bool

  /// The next bytes of the file.
  /// - Returns: `false` to stop the download.
  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
}

/// Collects a small file in memory, up to a limit, and stops at the
/// deadline whatever the source does.
final class _MemoryReceiver: DownloadReceiver {
  let limit: Int
  let bounds: TransferBounds
  private(set) var bytes: [UInt8] = []
  private(set) var isTooLarge = false
  private(set) var isPastDeadline = false

  init(limit: Int, deadline bounds: TransferBounds) {
    self.limit = limit
    self.bounds = bounds
  }

  func start(at offset: Int64) -> Bool {
    bytes.removeAll()
    return true
  }

  func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count + chunk.count <= limit else {
      isTooLarge = true
      return false
    }
    guard !bounds.hasExpired else {
      isPastDeadline = true
      return false
    }
    bytes.append(contentsOf: chunk)
    return true
  }
}

@available(*, unavailable)
extension _MemoryReceiver: Sendable {}
