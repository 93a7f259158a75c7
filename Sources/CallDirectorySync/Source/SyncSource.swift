/// Where a device fetches a store's files from: the store's directory, or
/// any static host holding copies of its `manifest.json*`, `snapshots/` and
/// `deltas/` (paths are the manifest's, relative to the store).
///
/// The app implements it with its HTTP client (URLSession on iOS, with a
/// `Range` header to resume); `calldir device sync` has one for plain
/// directories and one for `http(s)://` URLs. Calls block until done.
public protocol SyncSource: Sendable {
  /// A short name for messages: the directory or the base URL.
  var name: String { get }

  /// The whole of a small file (the manifest, its signature).
  ///
  /// - Parameter limit: The most bytes accepted; a larger file is refused.
  /// - Throws: ``SyncSourceError``.
  func fetch(_ path: String, limit: Int) throws(SyncSourceError) -> [UInt8]

  /// Streams a file into `receiver`, from byte `offset` on when the source
  /// can (an HTTP `Range: bytes=offset-` request answered 206), else from
  /// the start: it first calls ``DownloadReceiver/start(at:)`` with where
  /// the bytes begin, then ``DownloadReceiver/receive(_:)`` as they arrive.
  /// When the receiver returns `false` (it has failed and knows why), the
  /// download stops and the call returns normally.
  ///
  /// - Throws: ``SyncSourceError`` when the file is missing or the transfer
  ///   fails (a dropped connection); the bytes received stay received.
  func download(_ path: String, from offset: Int64, into receiver: any DownloadReceiver) throws(SyncSourceError)
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
