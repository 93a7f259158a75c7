import CallDirectorySources
import CalldirSystem

/// A report a build writes line by line into a temporary file in the store
/// (``AtomicFile``), so that millions of lines cost no memory; the
/// publisher renames it where it belongs once the build's outcome is known.
final class ReportFile {
  private let file: AtomicFile
  /// Lines written.
  private(set) var count = 0

  /// Creates the report in `directory` under a temporary name.
  init(directory: String, prefix: String) throws(CompileError) {
    do {
      file = try AtomicFile(destination: "\(directory)/\(prefix).txt")
    } catch {
      throw .report(error)
    }
  }

  /// Where the report is being written.
  var path: String { file.temporaryPath }

  /// Appends one line made of `parts` and a line feed.
  func addLine(_ parts: String...) throws(CompileError) {
    count += 1
    do {
      for part in parts { try file.writer.write(part) }
      try file.writer.write(byte: 0x0A)
    } catch {
      throw .report(error)
    }
  }

  /// Writes what is buffered and syncs the file; it stays at ``path`` until renamed.
  func finish() throws(CompileError) {
    do {
      try file.keep()
    } catch {
      throw .report(error)
    }
  }

  /// Removes the temporary file (when the build fails or publishes nothing).
  func discard() { file.discard() }
}

/// The rejects report: one line per rejected data line,
/// `file:line: reason<TAB>text` (`schemas/reports.md`), in the order met.
package final class RejectLog {
  let file: ReportFile

  /// Creates the report in `directory` (a temporary name).
  package init(directory: String) throws(CompileError) {
    file = try ReportFile(directory: directory, prefix: "rejects")
  }

  package var path: String { file.path }
  package var count: Int { file.count }

  /// Records one rejected line: `path` as written in the config, `text`
  /// already escaped and cut (``_LineText``). The path and the reason are
  /// escaped as ``ShownText`` escapes them, so that each reject is one
  /// line that `cat` or `less` shows as it is.
  func add(path: String, line: Int, reason: String, text: String) throws(CompileError) {
    try file.addLine(ShownText.escaped(path), ":", String(line), ": ", ShownText.escaped(reason), "\t", text)
  }

  package func finish() throws(CompileError) { try file.finish() }
  package func discard() { file.discard() }
}

/// The label conflicts of a build: one line per losing label,
/// `number<TAB>winning label<TAB>file:line<TAB>losing label<TAB>file:line`
/// (`schemas/reports.md`), ascending by number.
package final class ConflictLog {
  let file: ReportFile
  /// Each source's path as written in the config, escaped
  /// (``ShownText``), by config index.
  let paths: [Int: String]

  package init(directory: String, paths: [Int: String]) throws(CompileError) {
    file = try ReportFile(directory: directory, prefix: "conflicts")
    self.paths = paths.mapValues(ShownText.escaped)
  }

  package var path: String { file.path }
  package var count: Int { file.count }

  /// Records that `loser`'s label lost to `winner`'s for `number`.
  func add(
    number: Int64, winner: (label: String, source: Int, line: Int), loser: (label: String, source: Int, line: Int)
  ) throws(CompileError) {
    try file.addLine(
      String(number), "\t", ShownText.escaped(winner.label), "\t", paths[winner.source] ?? "?", ":",
      String(winner.line), "\t", ShownText.escaped(loser.label), "\t", paths[loser.source] ?? "?", ":",
      String(loser.line))
  }

  package func finish() throws(CompileError) { try file.finish() }
  package func discard() { file.discard() }
}
