import CallDirectorySync
import Foundation

/// A store served over HTTP or HTTPS by any static host (the store's
/// directory copied there), fetched with libcurl, which is loaded only
/// when a transfer runs (see `_HTTPTransfer`).
///
/// Each transfer fails when no byte arrives for `timeout` seconds. A
/// download that resumes sends `Range: bytes=N-`; a `206 Partial Content`
/// whose `Content-Range` starts at N continues the partial file, a `200`
/// (a server without ranges) or a `206` from byte 0 (a server that answers
/// every range with the whole file) restarts it, and a `416` (the file is shorter
/// than the partial one) is retried from the start. 404 and 410 mean the
/// file is not there.
public final class HTTPSource: SyncSource {
  /// The store's URL (a directory: files are resolved under it).
  public let baseURL: URL
  /// Seconds without a byte before a transfer fails.
  public let timeout: TimeInterval

  /// - Parameters:
  ///   - baseURL: `http://` or `https://`; a missing final `/` is added.
  ///   - timeout: Seconds without a byte before a transfer fails.
  public init(baseURL: URL, timeout: TimeInterval) {
    let text = baseURL.absoluteString
    self.baseURL = text.hasSuffix("/") ? baseURL : URL(string: text + "/") ?? baseURL
    self.timeout = timeout
  }

  public var name: String { baseURL.absoluteString }

  public func fetch(_ path: String, limit: Int) throws(SyncSourceError) -> [UInt8] {
    let receiver = _MemoryReceiver(limit: limit)
    try download(path, from: 0, into: receiver)
    if receiver.isTooLarge { throw .tooLarge(path: path, limit: limit) }
    return receiver.bytes
  }

  public func download(_ path: String, from offset: Int64, into receiver: any DownloadReceiver) throws(SyncSourceError) {
    switch try transfer(path, from: offset, into: receiver) {
    case .done: return
    case .rangeNotSatisfiable where offset > 0:
      if case .rangeNotSatisfiable = try transfer(path, from: 0, into: receiver) {
        throw .failed(path: path, reason: "\(url(of: path).absoluteString) answered 416 to a request without a range")
      }
    case .rangeNotSatisfiable:
      throw .failed(path: path, reason: "\(url(of: path).absoluteString) answered 416 to a request without a range")
    }
  }

  /// One request, its bytes streamed into `receiver`.
  private func transfer(
    _ path: String, from offset: Int64, into receiver: any DownloadReceiver
  ) throws(SyncSourceError) -> _HTTPTransfer.Outcome {
    let transfer = _HTTPTransfer(
      path: path, url: url(of: path).absoluteString, requestedOffset: offset, receiver: receiver)
    let seconds = timeout.isFinite && timeout < Double(Int32.max) ? Int64(timeout.rounded(.up)) : Int64(Int32.max)
    return try transfer.run(timeout: seconds)
  }

  /// The URL of a path relative to the store.
  func url(of path: String) -> URL {
    let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    return URL(string: escaped, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
  }
}

/// Collects a small file in memory, up to a limit.
final class _MemoryReceiver: DownloadReceiver {
  let limit: Int
  private(set) var bytes: [UInt8] = []
  private(set) var isTooLarge = false

  init(limit: Int) {
    self.limit = limit
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
    bytes.append(contentsOf: chunk)
    return true
  }
}
