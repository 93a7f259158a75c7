/// Answers "is this number in the list, and with which label" for a blob
/// without reading it front to back.
///
///     let lookup = try BlobLookup(path: "/data/v42.cdir")
///     if try lookup.containsBlocking(33_612_345_678) { print("blocked") }
///     if let label = try lookup.identificationLabel(for: 18_005_551_234) {
///       print("identified as \(label)")
///     }
///     let blocked = try lookup.containsBlocking([18_005_551_234, 33_612_345_678])
///
/// # How a lookup works
///
/// The first lookup in a section indexes its frames. In format version 2
/// that reads only the frame headers, one `pread` per frame, skipping the
/// payloads; the frame holding a number `n` is then the last frame whose
/// base is below `n`, found by binary search. Each lookup reads that one
/// frame and decodes it completely, with every check of a sequential read:
/// its CRC before anything else, every block, its entry count, and that it
/// ends at the next frame's base. The index itself is checked against the
/// section table: counts that add up, bases that increase, and the section
/// checksum over the frame CRCs.
///
/// A format version 1 blob gives the same answers, but its frames do not
/// record their bases, so the first lookup in a section decodes the whole
/// section once, sequentially (checking every frame and the section
/// checksum), to learn them; later lookups in that section cost the same as
/// in version 2.
///
/// A batch lookup sorts its numbers and decodes each frame they fall in only
/// once, so looking up many numbers at a time is much cheaper than one at a
/// time. Lookups never trap: corrupt or truncated data throws `BlobError`.
public final class BlobLookup {
  /// The blob being searched.
  public let reader: BlobReader
  private let frames: _FrameReader
  private var indexes: [BlobSection: _FrameIndex] = [:]
  private var labelChecksumVerified = false

  /// Opens the blob at `path` for lookups.
  /// - Throws: `BlobError.io` if the file cannot be opened, or a header error.
  public convenience init(path: String) throws(BlobError) {
    self.init(reader: try BlobReader(path: path))
  }

  /// Searches the blob `reader` reads. Nothing is read until the first lookup.
  public init(reader: BlobReader) {
    self.reader = reader
    self.frames = _FrameReader(source: reader._source)
  }

  // MARK: Full snapshots

  /// Whether the snapshot blocks `number`.
  /// - Throws: `BlobError.wrongKind` for a delta, or `BlobError` for
  ///   corrupt or truncated data.
  /// - Complexity: One frame read and decoded, after indexing (see the type).
  public func containsBlocking(_ number: Int64) throws(BlobError) -> Bool {
    try containsBlocking([number])[0]
  }

  /// Whether the snapshot blocks each of `numbers` (in any order).
  /// - Returns: One answer per number, in the order given.
  /// - Throws: `BlobError.wrongKind` for a delta, or `BlobError` for
  ///   corrupt or truncated data.
  public func containsBlocking(_ numbers: [Int64]) throws(BlobError) -> [Bool] {
    try _require(.full)
    return try contains(numbers, in: .blocking)
  }

  /// The identification label of `number` in the snapshot, or `nil` if the
  /// snapshot does not identify it.
  /// - Throws: `BlobError.wrongKind` for a delta, or `BlobError` for
  ///   corrupt or truncated data.
  public func identificationLabel(for number: Int64) throws(BlobError) -> String? {
    try identificationLabels(for: [number])[0]
  }

  /// The identification label of each of `numbers` (in any order), `nil`
  /// for a number the snapshot does not identify.
  ///
  /// The first call checks the label section's checksum (one pass over the
  /// dictionary), so label texts are as well protected as the numbers.
  /// - Returns: One answer per number, in the order given.
  /// - Throws: `BlobError.wrongKind` for a delta, or `BlobError` for
  ///   corrupt or truncated data.
  public func identificationLabels(for numbers: [Int64]) throws(BlobError) -> [String?] {
    try _require(.full)
    let ids = try labelIDs(for: numbers, in: .identification)
    if !labelChecksumVerified {
      try reader._verifyLabelChecksum()
      labelChecksumVerified = true
    }
    var labels: [String?] = []
    labels.reserveCapacity(ids.count)
    for id in ids { labels.append(try id.map { (id) throws(BlobError) in try reader.label(id) }) }
    return labels
  }

  // MARK: Any number section

  /// Whether `section` (of a full snapshot or a delta) holds each of
  /// `numbers` (in any order).
  /// - Returns: One answer per number, in the order given.
  /// - Throws: `BlobError.misuse` if the blob has no such number section,
  ///   or `BlobError` for corrupt or truncated data.
  public func contains(_ numbers: [Int64], in section: BlobSection) throws(BlobError) -> [Bool] {
    try _matcher(section).match(numbers).map { $0 != nil }
  }

  /// The label id of each of `numbers` (in any order) in a section that
  /// carries labels (``BlobSection/identification`` or
  /// ``BlobSection/identificationAdds``), `nil` for a number it does not
  /// hold. Resolve ids with ``BlobReader/label(_:)``.
  /// - Returns: One answer per number, in the order given.
  /// - Throws: `BlobError.misuse` if the section carries no labels or the
  ///   blob has no such section, or `BlobError` for corrupt or truncated data.
  public func labelIDs(for numbers: [Int64], in section: BlobSection) throws(BlobError) -> [UInt32?] {
    guard section.carriesLabels else {
      throw BlobError.misuse("the \(section) section carries no labels")
    }
    return try _matcher(section).match(numbers)
  }

  /// The number of frames in `section`, indexing it if needed.
  /// - Throws: `BlobError.misuse` if the blob has no such number section,
  ///   or `BlobError` for corrupt or truncated data.
  public func frameCount(in section: BlobSection) throws(BlobError) -> Int {
    try _index(section).frames.count
  }

  // MARK: Internals

  func _index(_ section: BlobSection) throws(BlobError) -> _FrameIndex {
    if let index = indexes[section] { return index }
    guard section.isNumberSection, let info = reader.header.info(section) else {
      throw BlobError.misuse("a \(reader.header.kind) blob has no \(section) number section")
    }
    let index = try _FrameIndex(
      source: reader._source, info: info, formatVersion: reader.header.formatVersion,
      labelCount: UInt64(reader.labelCount))
    indexes[section] = index
    return index
  }

  private func _matcher(_ section: BlobSection) throws(BlobError) -> _SectionMatcher {
    _SectionMatcher(index: try _index(section), frames: frames, labelLimit: UInt64(reader.labelCount))
  }

  private func _require(_ kind: BlobKind) throws(BlobError) {
    let actual = reader.header.kind
    guard actual == kind else { throw BlobError.wrongKind(expected: kind, actual: actual) }
  }
}

@available(*, unavailable)
extension BlobLookup: Sendable {}
