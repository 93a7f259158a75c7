import PhoneNumbers

/// A piece of a line-by-line blocking or allow source (``_LineIndependentReader``),
/// parsed and normalized on a worker thread.
///
/// Line numbers inside the job count from 1 at the piece's first line; the
/// fold adds the lines of the pieces before it.
final class LineChunkJob: @unchecked Sendable {
  private var bytes: [UInt8] = []
  private var endsWithTooLongLine = false
  /// Accepted numbers, in file order (a one-number pattern counts as a number).
  private(set) var numbers: [Int64] = []
  /// Accepted ranges of more than one number, in file order.
  private(set) var ranges: [ClosedRange<Int64>] = []
  /// Rejected data lines in order, numbered within the piece.
  private(set) var rejects: [(line: Int, reason: String)] = []
  /// What the reader saw; `physicalLines` is the piece's line count.
  private(set) var summary = SourceSummary()

  var isEmpty: Bool { bytes.isEmpty && !endsWithTooLongLine }

  /// Takes a copy of `piece`.
  func load(_ piece: _LinePiece) {
    bytes.append(contentsOf: piece.bytes)
    endsWithTooLongLine = piece.endsWithTooLongLine
  }

  /// Parses the piece with `format`'s line rules and normalizes its records.
  func run(format: any _LineIndependentReader.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?) {
    run(format, normalizer: normalizer, region: region)
  }

  private func run<Format: _LineIndependentReader>(
    _ format: Format.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?
  ) {
    numbers.reserveCapacity(bytes.count / 8)
    bytes.withUnsafeBufferPointer { buffer in
      let piece = _LinePiece(bytes: buffer, endsWithTooLongLine: endsWithTooLongLine)
      summary.physicalLines = Format._readLines(of: piece, firstLine: 1, summary: &summary) { event in
        switch event {
        case .record(let record):
          switch normalizer.normalize(utf8: record.numberBytes, region: region) {
          case .success(let number): numbers.append(number)
          case .failure(let rejection): rejects.append((record.line, rejection.description))
          }
        case .range(let item):
          if item.range.lower == item.range.upper {
            numbers.append(item.range.lower)
          } else {
            ranges.append(item.range.lower...item.range.upper)
          }
        case .issue(let issue):
          rejects.append((issue.line, issue.reason))
        }
      }
    }
  }

  func reset() {
    bytes.removeAll(keepingCapacity: true)
    endsWithTooLongLine = false
    numbers.removeAll(keepingCapacity: true)
    ranges.removeAll(keepingCapacity: true)
    rejects.removeAll(keepingCapacity: true)
    summary = SourceSummary()
  }
}
