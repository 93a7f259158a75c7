import CallDirectoryFormat
import CalldirSystem

/// Checks a Call Directory dataset the way CallKit would receive it from
/// `addBlockingEntry(withNextSequentialPhoneNumber:)` and
/// `addIdentificationEntry(withNextSequentialPhoneNumber:label:)`.
///
/// The input is a calldir blob (detected by its `CDIR` magic; full snapshot
/// or delta) or text, read once, front to back: a file, a FIFO, a pipe or
/// standard input. Memory stays constant whatever the input size: text is
/// read in 1 MiB chunks and blobs through the streaming iterators, which
/// hand a run of consecutive numbers over as one range (O(runs), not
/// O(numbers)). A blob that is not a regular file is spooled into memory
/// first, up to ``ValidationOptions/maxSpooledBlobBytes``.
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
/// A run block is checked in O(1); a label problem on a run is counted for
/// every entry of it and reported for as many as the report limit allows.
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

  /// Validates the file at `path`, reading it once, front to back.
  ///
  /// The path is opened once and never reopened, so a FIFO works like a
  /// file: text is streamed; a blob, which is read at random offsets, is
  /// read with `pread` from a regular file and otherwise spooled into
  /// memory first (up to ``ValidationOptions/maxSpooledBlobBytes``).
  ///
  /// - Parameters:
  ///   - path: A text file or a calldir blob (a FIFO, or `/dev/stdin`, too).
  ///   - report: Called with each of the first
  ///     ``ValidationOptions/maxReported`` violations, in input order.
  /// - Returns: Counts, the detected format and the text-sorting hint.
  /// - Throws: ``ValidationError/cannotRead(_:)`` when the path cannot be
  ///   opened or read or is a directory; `blobTooLargeToSpool`;
  ///   ``ValidationError/invalidBlob(path:_:)`` for a damaged blob.
  /// - Complexity: O(file size) time for text, O(runs) for a blob's
  ///   numbers; O(1) memory except for a spooled blob.
  public func validate(
    path: String, report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .readOnly)
    } catch {
      throw .cannotRead(error)
    }
    return try descriptor.closeAfter { () throws(ValidationError) -> ValidationSummary in
      try validate(descriptor: descriptor, name: path, report: report)
    }
  }

  /// Validates what an open descriptor holds, reading it once, front to
  /// back: standard input, a pipe, a FIFO or a file. It is not closed.
  ///
  /// A blob on a regular file is read with `pread` from offset 0; a blob
  /// on anything else is copied to a temporary file first (memory stays
  /// flat), up to ``ValidationOptions/maxSpooledBlobBytes``.
  /// - Parameter name: The input's name in messages (`<stdin>`).
  /// - Throws: ``ValidationError/cannotRead(_:)`` when reading fails or the
  ///   descriptor is a directory; `blobTooLargeToSpool`; `cannotSpool`;
  ///   `invalidBlob`.
  public func validate(
    descriptor: FileDescriptor, name: String, report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    let status: FileStatus
    let input: ChunkedInput
    do throws(FileError) {
      do {
        status = try descriptor.status()
      } catch {
        throw FileError(operation: "read the status of", path: name, errno: error)
      }
      if status.kind == .directory { throw FileError(operation: "read", path: name, errno: .isDirectory) }
      input = try ChunkedInput(.descriptor(descriptor, name: name), chunkSize: chunkSize)
    } catch {
      throw .cannotRead(error)
    }
    return try run(input, report: report) { () throws(ValidationError) -> BlobReader in
      guard status.isRegularFile else {
        return try _BlobSpool.reader(
          draining: input, limit: options.maxSpooledBlobBytes, directory: options.spoolDirectory)
      }
      do throws(BlobError) {
        return try BlobReader(descriptor: descriptor, path: name)
      } catch {
        throw ValidationError(error, path: name)
      }
    }
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
    let input: ChunkedInput
    do {
      input = try ChunkedInput(.bytes(bytes), chunkSize: chunkSize)
    } catch {
      throw .cannotRead(error)
    }
    return try run(input, report: report) { () throws(ValidationError) -> BlobReader in
      do throws(BlobError) {
        return try BlobReader(bytes: bytes)
      } catch {
        throw ValidationError(error, path: name)
      }
    }
  }

  /// Validates a blob already open in `reader` (tests bound the work of a
  /// walk over its numbers through the reader).
  func validate(
    reader: BlobReader, name: String, report: (Violation) -> Void
  ) throws(ValidationError) -> ValidationSummary {
    try withoutActuallyEscaping(report) { (handler) throws(ValidationError) -> ValidationSummary in
      try validateBlob(reader, name: name, log: _ViolationLog(limit: options.maxReported, handler: handler))
    }
  }

  // MARK: Internals

  /// Sniffs the `CDIR` magic in the first bytes of `input`, then validates
  /// the rest of it as text, or opens the blob with `openBlob`.
  private func run(
    _ input: ChunkedInput, report: (Violation) -> Void,
    blob openBlob: () throws(ValidationError) -> BlobReader
  ) throws(ValidationError) -> ValidationSummary {
    try withoutActuallyEscaping(report) { (handler) throws(ValidationError) -> ValidationSummary in
      let log = _ViolationLog(limit: options.maxReported, handler: handler)
      do throws(FileError) {
        try input.ensure(4)
      } catch {
        throw .cannotRead(error)
      }
      let magic: [UInt8] = [0x43, 0x44, 0x49, 0x52]  // "CDIR"
      if input.end >= 4, (0..<4).allSatisfy({ input.base[$0] == magic[$0] }) {
        return try validateBlob(try openBlob(), name: input.name, log: log)
      }
      var text = _TextValidator(log: log, options: options)
      do throws(FileError) {
        try text.consumeLines(of: input)
      } catch {
        throw .cannotRead(error)
      }
      let (lists, sorted) = text.finish()
      return summary(format: .text, lists: lists, log: log, textSorted: sorted)
    }
  }

  private func validateBlob(
    _ reader: BlobReader, name: String, log: _ViolationLog
  ) throws(ValidationError) -> ValidationSummary {
    let validator = _BlobValidator(reader: reader, path: name, options: options, log: log)
    let lists = try validator.run()
    let format: InputFormat = reader.header.kind == .full ? .fullSnapshot : .delta
    return summary(format: format, lists: lists, log: log, textSorted: [])
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
