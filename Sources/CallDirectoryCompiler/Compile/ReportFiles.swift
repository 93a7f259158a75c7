import Foundation

/// A report a build writes line by line into a temporary file, so that
/// millions of lines cost no memory; the publisher renames it into place.
final class ReportFile {
  /// Where the report is being written.
  let url: URL
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  /// Lines written.
  private(set) var count = 0

  /// Creates the report in `directory` under a temporary name starting with `prefix`.
  init(directory: URL, prefix: String) throws(CompileError) {
    url = directory.appendingPathComponent(".\(prefix)-\(UUID().uuidString).tmp")
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

  /// Appends one line (`text` and a line feed).
  func addLine(_ parts: String...) throws(CompileError) {
    count += 1
    for part in parts { buffer.append(contentsOf: part.utf8) }
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

/// The rejects report: one line per rejected data line,
/// `file:line: reason<TAB>text` (`schemas/reports.md`), in the order met.
final class RejectLog {
  let file: ReportFile

  /// Creates the report in `directory` (a temporary name).
  init(directory: URL) throws(CompileError) {
    file = try ReportFile(directory: directory, prefix: "rejects")
  }

  var url: URL { file.url }
  var count: Int { file.count }

  /// Records one rejected line: `path` as written in the config, `text`
  /// already escaped and cut (``_LineText``).
  func add(path: String, line: Int, reason: String, text: String) throws(CompileError) {
    try file.addLine(path, ":", String(line), ": ", reason, "\t", text)
  }

  func finish() throws(CompileError) { try file.finish() }
  func discard() { file.discard() }
}

/// The label conflicts of a build: one line per losing label,
/// `number<TAB>winning label<TAB>file:line<TAB>losing label<TAB>file:line`
/// (`schemas/reports.md`), ascending by number.
final class ConflictLog {
  let file: ReportFile
  /// Each source's path as written in the config, by config index.
  let paths: [Int: String]

  init(directory: URL, paths: [Int: String]) throws(CompileError) {
    file = try ReportFile(directory: directory, prefix: "conflicts")
    self.paths = paths
  }

  var url: URL { file.url }
  var count: Int { file.count }

  /// Records that `loser`'s label lost to `winner`'s for `number`.
  func add(
    number: Int64, winner: (label: String, source: Int, line: Int), loser: (label: String, source: Int, line: Int)
  ) throws(CompileError) {
    try file.addLine(
      String(number), "\t", winner.label, "\t", paths[winner.source] ?? "?", ":", String(winner.line), "\t",
      loser.label, "\t", paths[loser.source] ?? "?", ":", String(loser.line))
  }

  func finish() throws(CompileError) { try file.finish() }
  func discard() { file.discard() }
}
