import CallDirectorySync
import Foundation

/// A store served over HTTP or HTTPS by any static host (the store's
/// directory copied there), fetched with libcurl, which is loaded only
/// when a transfer runs (see `_HTTPTransfer`).
///
/// Each transfer keeps to its ``TransferBounds``: it fails when it takes
/// longer than their `stallSeconds` to connect, moves less than their
/// `minimumRate` bytes a second over that many seconds, or runs past their
/// deadline. A download that resumes sends `Range: bytes=N-`; a
/// `206 Partial Content` whose `Content-Range` starts at N continues the
/// partial file, a `200` (a server without ranges) or a `206` from byte 0
/// (a server that answers every range with the whole file) restarts it,
/// and a `416` (the file is shorter than the partial one) is retried from
/// the start. 404 and 410 mean the file is not there. Credentials in the
/// URL (`https://user:password@host/`) are sent, never shown
/// (``URLRedaction``).
public final class HTTPSource: SyncSource {
  /// The store's URL (a directory: files are resolved under it).
  public let baseURL: URL

  /// - Parameter baseURL: `http://` or `https://`; a missing final `/` is added.
  public init(baseURL: URL) {
    let text = baseURL.absoluteString
    self.baseURL = text.hasSuffix("/") ? baseURL : URL(string: text + "/") ?? baseURL
  }

  /// The base URL, without its credentials.
  public var name: String { URLRedaction.redacted(baseURL.absoluteString) }

  public func download(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) throws(SyncSourceError) {
    switch try transfer(path, from: offset, within: bounds, into: receiver) {
    case .done: return
    case .rangeNotSatisfiable where offset > 0:
      if case .rangeNotSatisfiable = try transfer(path, from: 0, within: bounds, into: receiver) {
        throw .failed(path: path, reason: "\(displayURL(of: path)) answered 416 to a request without a range")
      }
    case .rangeNotSatisfiable:
      throw .failed(path: path, reason: "\(displayURL(of: path)) answered 416 to a request without a range")
    }
  }

  /// One request, its bytes streamed into `receiver`.
  private func transfer(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) throws(SyncSourceError) -> _HTTPTransfer.Outcome {
    let transfer = _HTTPTransfer(
      path: path, url: url(of: path).absoluteString, sourceName: name, requestedOffset: offset, receiver: receiver)
    return try transfer.run(within: bounds)
  }

  /// The URL of a path relative to the store.
  func url(of path: String) -> URL {
    let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    return URL(string: escaped, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
  }

  /// The URL of a path as messages show it.
  private func displayURL(of path: String) -> String { URLRedaction.redacted(url(of: path).absoluteString) }
}
