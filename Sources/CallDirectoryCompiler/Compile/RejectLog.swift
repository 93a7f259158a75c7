import Foundation

/// Collects rejected lines as `file:line: reason`, in the order met, into a
/// temporary file so that millions of rejects cost no memory.
final class RejectLog {
  /// Where the report is being written.
  let url: URL
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private(set) var count = 0

  /// Creates the report in `directory` (a temporary name).
  init(directory: URL) throws(CompileError) {
    url = directory.appendingPathComponent(".rejects-\(UUID().uuidString).tmp")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw .report(path: url.path, reason: "cannot create file")
    }
    do {
      handle = try FileHandle(forWritingTo: url)
    } catch {
      throw .report(path: url.path, reason: error.localizedDescription.lowercased())
    }
    buffer.reserveCapacity(1 << 16)
  }

  deinit { try? handle.close() }

  /// Records one rejected line.
  func add(path: String, line: Int, reason: String) throws(CompileError) {
    count += 1
    buffer.append(contentsOf: path.utf8)
    buffer.append(UInt8(ascii: ":"))
    buffer.append(contentsOf: String(line).utf8)
    buffer.append(contentsOf: ": ".utf8)
    buffer.append(contentsOf: reason.utf8)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Writes what is buffered and syncs the file to disk.
  func finish() throws(CompileError) {
    try flush()
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw .report(path: url.path, reason: error.localizedDescription.lowercased())
    }
  }

  /// Removes the temporary file (when the build fails or publishes nothing).
  func discard() {
    try? handle.close()
    try? FileManager.default.removeItem(at: url)
  }

  private func flush() throws(CompileError) {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw .report(path: url.path, reason: error.localizedDescription.lowercased())
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
