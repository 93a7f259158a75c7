import CallDirectorySync
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP request's delegate: checks the status and `Content-Range`,
/// hands the body to the receiver as it arrives, and wakes the caller
/// blocked in ``wait()`` when the task ends.
///
/// `@unchecked Sendable`: URLSession calls it on its serial delegate queue
/// only, while the caller waits on the semaphore; the receiver is only
/// touched there.
final class _HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// How a request ended, when it did not fail.
  enum Outcome {
    /// The body went to the receiver (or the receiver stopped it).
    case done
    /// The server answered 416 to the range asked for.
    case rangeNotSatisfiable
  }

  let path: String
  let url: URL
  let requestedOffset: Int64
  private let receiver: any DownloadReceiver
  private let finished = DispatchSemaphore(value: 0)
  private var outcome: Result<Outcome, SyncSourceError>?
  private var isStoppedByReceiver = false

  init(path: String, url: URL, requestedOffset: Int64, receiver: any DownloadReceiver) {
    self.path = path
    self.url = url
    self.requestedOffset = requestedOffset
    self.receiver = receiver
  }

  /// Blocks until the task ends.
  func wait() throws(SyncSourceError) -> Outcome {
    finished.wait()
    switch outcome {
    case .success(let value)?: return value
    case .failure(let error)?: throw error
    case nil: return .done
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let http = response as? HTTPURLResponse else {
      outcome = .failure(.failed(path: path, reason: "\(url.absoluteString) did not answer over http"))
      return completionHandler(.cancel)
    }
    let start: Int64
    switch http.statusCode {
    case 200:
      start = 0
    case 206:
      guard let first = Self.firstByte(ofContentRange: http.value(forHTTPHeaderField: "Content-Range")),
        first == requestedOffset
      else {
        outcome = .failure(.failed(
          path: path,
          reason: "\(url.absoluteString) sent bytes from another offset than \(requestedOffset) "
            + "(Content-Range: \(http.value(forHTTPHeaderField: "Content-Range") ?? "none"))"))
        return completionHandler(.cancel)
      }
      start = first
    case 404, 410:
      outcome = .failure(.notFound(path: path, source: url.absoluteString))
      return completionHandler(.cancel)
    case 416:
      outcome = .success(.rangeNotSatisfiable)
      return completionHandler(.cancel)
    default:
      outcome = .failure(.failed(path: path, reason: "\(url.absoluteString) answered HTTP \(http.statusCode)"))
      return completionHandler(.cancel)
    }
    guard receiver.start(at: start) else {
      isStoppedByReceiver = true
      return completionHandler(.cancel)
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard outcome == nil, !isStoppedByReceiver else { return }
    let accepted = data.withUnsafeBytes { receiver.receive($0) }
    if !accepted {
      isStoppedByReceiver = true
      dataTask.cancel()
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    if outcome == nil {
      if isStoppedByReceiver {
        outcome = .success(.done)
      } else if let error {
        outcome = .failure(.failed(path: path, reason: "\(url.absoluteString): \(error.localizedDescription)"))
      } else {
        outcome = .success(.done)
      }
    }
    finished.signal()
  }

  /// N of `bytes N-M/T`.
  static func firstByte(ofContentRange value: String?) -> Int64? {
    guard let value, value.hasPrefix("bytes ") else { return nil }
    let range = value.dropFirst("bytes ".count)
    guard let dash = range.firstIndex(of: "-") else { return nil }
    return Int64(range[..<dash])
  }
}
