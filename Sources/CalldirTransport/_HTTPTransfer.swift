import CCurlShim
import CallDirectorySync

/// One HTTP GET through libcurl (``CCurlShim``, loaded on first use):
/// checks the final response's status and `Content-Range`, and hands the
/// body to the receiver as it arrives.
///
/// Redirects (301, 302, 303, 307, 308) are followed, to http and https
/// only, at most ``maxRedirects`` of them, as URLSession did; the checks
/// apply to the response at the end of them. The transfer runs on the
/// calling thread, which libcurl calls back on.
final class _HTTPTransfer {
  /// How a request ended, when it did not fail.
  enum Outcome {
    /// The body went to the receiver (or the receiver stopped it).
    case done
    /// The server answered 416 to the range asked for.
    case rangeNotSatisfiable
  }

  /// The most redirects followed (URLSession's limit).
  static let maxRedirects = 20

  let path: String
  /// The absolute URL the request is sent to (with its credentials).
  let url: String
  /// The URL as messages show it, without credentials (``URLRedaction``).
  let displayURL: String
  /// The store the path is fetched from, as messages show it (a missing
  /// file is "STORE has no PATH", not the file's own URL).
  let sourceName: String
  let requestedOffset: Int64
  private let receiver: any DownloadReceiver
  /// Set once the final response's status has been answered.
  private var outcome: Result<Outcome, SyncSourceError>?
  private var isStoppedByReceiver = false
  private var hasStarted = false
  /// The `Content-Range` of the response being received.
  private var contentRange: String?

  init(path: String, url: String, sourceName: String, requestedOffset: Int64, receiver: any DownloadReceiver) {
    self.path = path
    self.url = url
    displayURL = URLRedaction.redacted(url)
    self.sourceName = sourceName
    self.requestedOffset = requestedOffset
    self.receiver = receiver
  }

  /// Runs the request; returns when it has ended.
  /// - Parameter bounds: Seconds to connect, the minimum rate over that
  ///   many seconds, and the deadline of the whole transfer.
  /// - Throws: `SyncSourceError` for a missing file, a status other than
  ///   200, 206, 416, 404 and 410, a `Content-Range` that starts neither at
  ///   the offset asked for nor at 0, a transfer too slow or past the
  ///   deadline, or a network failure (libcurl's message).
  func run(within bounds: TransferBounds) throws(SyncSourceError) -> Outcome {
    var loadError = [CChar](repeating: 0, count: 256)
    guard cd_curl_load(&loadError, loadError.count) == 0 else {
      throw .failed(path: path, reason: "\(displayURL): \(Self.text(loadError))")
    }
    guard !bounds.hasExpired else { throw .failed(path: path, reason: "\(displayURL): \(bounds.expiryReason)") }
    var result = cd_curl_result()
    let range = requestedOffset > 0 ? "bytes=\(requestedOffset)-" : nil
    withExtendedLifetime(self) {
      let context = Unmanaged.passUnretained(self).toOpaque()
      url.withCString { url in
        Self.withOptionalCString(range) { range in
          var request = cd_curl_request(
            url: url, range: range, timeout_seconds: Int64(bounds.limits.stallSeconds),
            minimum_rate: Int64(bounds.limits.minimumRate), deadline_milliseconds: bounds.remainingMilliseconds,
            max_redirects: Int64(Self.maxRedirects),
            on_header: { line, length, context in
              guard let line, let context else { return 0 }
              let transfer = Unmanaged<_HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
              transfer.header(UnsafeRawBufferPointer(start: line, count: length))
              return 0
            },
            on_body: { bytes, length, status, context in
              guard let context else { return 1 }
              let transfer = Unmanaged<_HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
              return transfer.body(UnsafeRawBufferPointer(start: bytes, count: length), status: status) ? 0 : 1
            },
            context: context)
          cd_curl_get(&request, &result)
        }
      }
    }
    if !hasStarted && outcome == nil && result.code == 0 {
      // A complete response without a body: answer its status now.
      _ = answer(status: result.status)
    }
    if let outcome { return try outcome.get() }
    if isStoppedByReceiver { return .done }
    guard result.code == 0 else {
      if result.timed_out != 0 && bounds.hasExpired {
        throw .failed(path: path, reason: "\(displayURL): \(bounds.expiryReason)")
      }
      let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      throw .failed(path: path, reason: "\(displayURL): \(URLRedaction.redacted(message))")
    }
    return .done
  }

  /// Notes the `Content-Range` of the response being received (a status
  /// line starts the next response of a redirect).
  private func header(_ line: UnsafeRawBufferPointer) {
    let text = String(decoding: line, as: UTF8.self)
    if text.hasPrefix("HTTP/") {
      contentRange = nil
      return
    }
    guard let colon = text.firstIndex(of: ":"),
      text[..<colon].lowercased() == "content-range"
    else { return }
    contentRange = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
      .trimmingTrailingWhitespace()
  }

  /// Takes a piece of the body; `false` stops the transfer.
  private func body(_ bytes: UnsafeRawBufferPointer, status: Int64) -> Bool {
    if !hasStarted {
      guard answer(status: status) else { return false }
    }
    guard outcome == nil, !isStoppedByReceiver else { return false }
    if !receiver.receive(bytes) {
      isStoppedByReceiver = true
      return false
    }
    return true
  }

  /// Checks the final response's status before its body; `false` when the
  /// body is not wanted (an error, a 416, or the receiver declined).
  private func answer(status: Int64) -> Bool {
    hasStarted = true
    let start: Int64
    switch status {
    case 200:
      start = 0
    case 206:
      // From the requested offset it continues the partial file; from 0
      // (a server that answers every Range with the whole file as a 206)
      // the download starts over, as for a 200.
      guard let first = Self.firstByte(ofContentRange: contentRange), first == requestedOffset || first == 0 else {
        outcome = .failure(.failed(
          path: path,
          reason: "\(displayURL) sent bytes from another offset than \(requestedOffset) "
            + "(Content-Range: \(contentRange ?? "none"))"))
        return false
      }
      start = first
    case 404, 410:
      outcome = .failure(.notFound(path: path, source: sourceName))
      return false
    case 416:
      outcome = .success(.rangeNotSatisfiable)
      return false
    default:
      outcome = .failure(.failed(path: path, reason: "\(displayURL) answered HTTP \(status)"))
      return false
    }
    guard receiver.start(at: start) else {
      isStoppedByReceiver = true
      return false
    }
    return true
  }

  /// N of `bytes N-M/T`.
  static func firstByte(ofContentRange value: String?) -> Int64? {
    guard let value, value.hasPrefix("bytes ") else { return nil }
    let range = value.dropFirst("bytes ".count)
    guard let dash = range.firstIndex(of: "-") else { return nil }
    return Int64(range[..<dash])
  }

  private static func text(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
  }
}

extension String {
  /// The string without trailing spaces, tabs, CR and LF.
  fileprivate func trimmingTrailingWhitespace() -> String {
    var end = endIndex
    // `isWhitespace`: a header line's CR LF is one Character, "\r\n".
    while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
    return String(self[..<end])
  }
}

@available(*, unavailable)
extension _HTTPTransfer: Sendable {}
