#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CallDirectoryFormat

/// Checks a Call Directory dataset the way CallKit would receive it from
/// `addBlockingEntry(withNextSequentialPhoneNumber:)` and
/// `addIdentificationEntry(withNextSequentialPhoneNumber:label:)`.
///
/// The input is a calldir blob (detected by its `CDIR` magic; full snapshot
/// or delta) or text. Memory stays constant whatever the input size: text
/// is read in 1 MiB chunks and blobs through the streaming iterators.
///
/// # Text input
///
/// One entry per line, LF or CRLF:
///
///     # comment (the first byte of the line is '#')
///     18005551234                  a blocking entry
///     33612345678<TAB>Telemarketer an identification entry
///
/// - A line without a tab is a **blocking** entry; a line with one is an
///   **identification** entry whose label is everything after the first tab.
///   The two lists are ordered independently.
/// - A number is ASCII digits without a leading zero, country code first
///   (`CXCallDirectoryPhoneNumber`). A leading `+`, a leading zero, spaces,
///   separators or any other byte make it ``ViolationKind/notANumber``;
///   `0`, `-5` and values past `Int64.max - 1` (including ones that overflow
///   `Int64`) are ``ViolationKind/outOfRange``.
/// - Empty lines are violations, except at the end of the file (any
///   number of trailing empty lines, like the final line break, are fine).
///   A line holding only spaces is not empty (it is not a number).
/// - Labels must be non-empty valid UTF-8; control characters (category
///   Cc, tab included) give a warning.
/// - When the order violations of a list look like text sorting (`10`
///   before `9`), ``ValidationSummary/hint`` says so.
///
/// # Blob input
///
/// The blob is first verified in full (header, frame, section and label
/// checksums, structure, counts; the content digest only with
/// ``ValidationOptions/recomputesDigest``); a damaged blob throws
/// ``ValidationError/invalidBlob(path:_:)``. Each number section is then
/// checked as one list (full: blocking, identification; delta: blocking
/// removes, blocking adds, identification removes, identification adds),
/// and every label an entry uses must be non-empty. The format makes order,
/// duplicate and range violations impossible in an intact blob; they are
/// still checked. Violations are located by section and 1-based entry index.
///
/// # Example
///
///     let validator = DatasetValidator(options: ValidationOptions(maxReported: 20))
///     let summary = try validator.validate(path: "list.txt") { violation in
///       print(violation.message)
///     }
///     print(summary.isValid)
public struct DatasetValidator: Sendable {
  /// The settings.
  public var options: ValidationOptions

  /// The size of each read from a text file.
  let chunkSize: Int

  /// Creates a validator.
  public init(options: ValidationOptions = ValidationOptions()) {
    self.init(options: options, chunkSize: 1 << 20)
  }

  init(options: ValidationOptions, chunkSize: Int) {
    self.options = options
    self.chunkSize = max(1, chunkSize)
  }

  /// Validates the file at `path`.
  ///
  /// - Parameters:
  ///   - path: A text file or a calldir blob.
  ///   - report: Called with each of the first
  ///     ``ValidationOptions/maxReported`` violations, in input order.
  /// - Returns: Counts, the detected format and the text-sorting hint.
  /// - Throws: ``ValidationError`` when the file cannot be opened or read,
  ///   or is a damaged blob.
  /// - Complexity: O(file size) time, O(1) memory.
  public func validate(
    path: String, report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    let file = try _FileInput(path: path)
    return try run(name: path, input: file, blob: { () throws(ValidationError) in
      let reader: BlobReader
      do {
        reader = try BlobReader(path: path)
      } catch let error as BlobError {
        throw .invalidBlob(path: path, error)
      } catch {
        throw .unexpected(String(describing: error))
      }
      return (reader, file)
    }, report: report)
  }

  /// Validates input held in memory (tests and small data).
  ///
  /// - Parameters:
  ///   - bytes: Text or a calldir blob.
  ///   - name: The name used in error messages.
  ///   - report: Called with each of the first reported violations.
  /// - Returns: Counts, the detected format and the text-sorting hint.
  /// - Throws: ``ValidationError/invalidBlob(path:_:)`` for a damaged blob.
  public func validate(
    bytes: [UInt8], name: String = "<memory>", report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    let input = _MemoryInput(bytes: bytes, chunkLimit: chunkSize)
    return try run(name: name, input: input, blob: { () throws(ValidationError) in
      let reader: BlobReader
      do {
        reader = try BlobReader(bytes: bytes)
      } catch let error as BlobError {
        throw .invalidBlob(path: name, error)
      } catch {
        throw .unexpected(String(describing: error))
      }
      return (reader, _MemoryInput(bytes: bytes))
    }, report: report)
  }

  // MARK: Internals

  private func run(
    name: String,
    input: any _SequentialInput,
    blob openBlob: () throws(ValidationError) -> (BlobReader, any _RandomAccessInput),
    report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    try withoutActuallyEscaping(report) { (handler) throws(ValidationError) -> ValidationSummary in
      let log = _ViolationLog(limit: options.maxReported, handler: handler)
      let maxLine = options.maxLineLength
      // Room for the longest line, one read, and a sentinel line feed.
      let capacity = maxLine + 1 + chunkSize
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      defer { buffer.deallocate() }

      // Read at least the 4 magic bytes (or everything, if shorter).
      var filled = 0
      while filled < 4 {
        let got = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: chunkSize))
        if got == 0 { break }
        filled += got
      }
      if filled >= 4, buffer[0] == 0x43, buffer[1] == 0x44, buffer[2] == 0x49, buffer[3] == 0x52 {
        let (reader, source) = try openBlob()
        let validator = _BlobValidator(reader: reader, input: source, path: name, options: options, log: log)
        let lists = try validator.run()
        let format: InputFormat = reader.header.kind == .full ? .fullSnapshot : .delta
        return summary(format: format, lists: lists, log: log, textSorted: [])
      }

      var text = _TextValidator(log: log, options: options)
      var carried = 0
      var skipping = false
      var pending = filled  // bytes already read but not yet scanned
      while true {
        var total = carried
        if pending > 0 {
          total += pending
          pending = 0
        } else {
          let room = UnsafeMutableRawBufferPointer(start: buffer + carried, count: capacity - 1 - carried)
          let got = try input.read(into: room)
          if got == 0 { break }
          total += got
        }
        var scanFrom = carried
        if skipping {
          // Drop the rest of a line that was too long.
          guard let newline = memchr(buffer, 0x0A, total) else {
            carried = 0
            continue
          }
          let next = UnsafeMutablePointer(newline.assumingMemoryBound(to: UInt8.self)) + 1
          let rest = buffer + total - next
          memmove(buffer, next, rest)
          total = rest
          scanFrom = 0
          skipping = false
        }
        if let lastNewline = Self.lastLineFeed(buffer + scanFrom, count: total - scanFrom) {
          let end = lastNewline + 1
          text.consume(buffer, end)
          let rest = buffer + total - end
          memmove(buffer, end, rest)
          carried = rest
        } else {
          carried = total
        }
        if carried > maxLine {
          text.skipLongLine()
          skipping = true
          carried = 0
        }
      }
      if !skipping, carried > 0 {
        buffer[carried] = 0x0A
        text.consume(buffer, buffer + carried + 1)
      }
      let (lists, sorted) = text.finish()
      return summary(format: .text, lists: lists, log: log, textSorted: sorted)
    }
  }

  /// The last LF in `count` bytes at `start`.
  private static func lastLineFeed(_ start: UnsafeMutablePointer<UInt8>, count: Int) -> UnsafeMutablePointer<UInt8>? {
    var index = count - 1
    while index >= 0 {
      if start[index] == 0x0A { return start + index }
      index -= 1
    }
    return nil
  }

  private func summary(
    format: InputFormat, lists: [ListCount], log: _ViolationLog, textSorted: [_ListChecker]
  ) -> ValidationSummary {
    ValidationSummary(
      format: format, lists: lists, errorCount: log.errors, warningCount: log.warnings,
      reportedCount: log.reported, textSortedLists: textSorted.map(\.list),
      hint: Self.hint(textSorted))
  }

  private static func hint(_ lists: [_ListChecker]) -> String? {
    guard let first = lists.first else { return nil }
    let names = lists.map { "\($0.list)" }.joined(separator: " and ")
    let example = first.textExample.map { " (e.g. \($0.number) after \($0.previous))" } ?? ""
    return "\(names) entries look sorted as text, not numerically\(example); "
      + "sort with `sort -n` or let `calldir build` do it"
  }
}
