import CallDirectorySync
import Foundation

/// A ``SyncSource`` over files in memory that can misbehave on purpose: cut
/// a transfer short, ignore the offset asked for, or lack a file.
final class MemorySource: SyncSource, @unchecked Sendable {
  private let lock = NSLock()
  private var files: [String: [UInt8]]
  /// Whether a download honours the offset (else it restarts from 0).
  var supportsRanges = true
  /// Paths whose next transfer fails after this many bytes (one shot each).
  var dropsAfter: [String: Int] = [:]
  /// Every download asked for: path and offset.
  private(set) var requests: [(path: String, offset: Int64)] = []

  init(files: [String: [UInt8]] = [:]) {
    self.files = files
  }

  var name: String { "memory" }

  subscript(path: String) -> [UInt8]? {
    get { lock.withLock { files[path] } }
    set { lock.withLock { files[path] = newValue } }
  }

  /// Seconds it waits before each piece, ignoring the deadline (a slow
  /// server whose source does not keep to its bounds).
  var delayPerPiece: Double = 0

  func download(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) throws(SyncSourceError) {
    requests.append((path, offset))
    guard let bytes = self[path] else { throw .notFound(path: path, source: name) }
    let start = supportsRanges && offset <= Int64(bytes.count) ? Int(offset) : 0
    guard receiver.start(at: Int64(start)) else { return }
    let drop = dropsAfter.removeValue(forKey: path)
    var position = start
    while position < bytes.count {
      let end = min(position + 1000, bytes.count, drop.map { start + $0 } ?? Int.max)
      if end == position { throw .failed(path: path, reason: "the connection dropped") }
      if delayPerPiece > 0 { usleep(UInt32(delayPerPiece * 1_000_000)) }
      let accepted = bytes[position..<end].withUnsafeBytes { receiver.receive($0) }
      guard accepted else { return }
      position = end
    }
  }
}
