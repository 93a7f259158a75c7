import CalldirSystem

/// Reads a call directory blob from a file (with `pread`) or from memory.
///
/// Opening reads and checks only the header. Sections are then streamed in
/// constant memory through iterators; labels are looked up on demand.
///
///     let reader = try BlobReader(path: "/data/v42.cdir")
///     try reader.verify()                    // optional full check first
///     let blocking = try reader.blocking()
///     while let number = try blocking.next() { context.addBlocking(number) }
///     let identification = try reader.identification()
///     while let entry = try identification.next() {
///       context.addIdentification(entry.number, label: try reader.label(entry.labelID))
///     }
///
/// To walk a section in O(runs) rather than O(numbers), take
/// ``NumberIterator/nextChunk()`` (or ``IdentificationIterator/nextChunk()``):
/// a run of consecutive numbers comes back as one range.
///
/// Every iterator checks each frame's CRC-32C before it returns any of the
/// frame's numbers, and the section checksum and count when it reaches the
/// end. Label lookups check offsets and UTF-8 but not the label section's
/// checksum; ``verify(recomputingDigest:)`` checks everything. For
/// membership questions about single numbers, ``BlobLookup`` searches a
/// blob without reading it front to back.
///
/// Format versions 1 and 2 read the same way.
public final class BlobReader {
  /// The validated header.
  public let header: BlobHeader
  private let source: _ByteSource
  private let labelStore: _LabelStore
  /// What this reader's iterators have decoded (tests bound it).
  let _statistics = _DecodeStatistics()
  /// The frame indexes read so far, by section (``numbers(_:above:through:)``).
  var _frameIndexes: [BlobSection: _FrameIndex] = [:]

  /// Opens the blob at `path`.
  ///
  /// The file is opened once, without blocking, and read with `pread`.
  /// - Throws: `BlobError.io` if the file cannot be opened (missing, a
  ///   symbolic link loop, unreadable) or is not a regular file (a
  ///   directory: `EISDIR`; a FIFO, pipe, device or socket: `ESPIPE`,
  ///   since a blob is read at random offsets); a header error.
  public convenience init(path: String) throws(BlobError) {
    try self.init(source: _ByteSource(path: path))
  }

  /// Reads the blob in the regular file open as `descriptor` (for example
  /// standard input redirected from a file), with `pread` from offset 0,
  /// whatever the descriptor's file offset. The descriptor is not closed;
  /// it must stay open while the reader and its iterators are used.
  /// - Parameter path: The file's name in errors.
  /// - Throws: `BlobError.io` if it is not a regular file or cannot be
  ///   read; a header error.
  public convenience init(descriptor: FileDescriptor, path: String) throws(BlobError) {
    try self.init(source: _ByteSource(descriptor: descriptor, path: path, closes: false))
  }

  /// Reads the blob in the regular file open as `descriptor`, as
  /// ``init(descriptor:path:)`` does, and closes the descriptor when the
  /// reader (and the last of its iterators) is gone, or when this fails.
  /// - Parameter path: The file's name in errors.
  public convenience init(owning descriptor: FileDescriptor, path: String) throws(BlobError) {
    try self.init(source: _ByteSource(descriptor: descriptor, path: path, closes: true))
  }

  /// Opens a blob held in memory.
  /// - Throws: `BlobError` if the header is invalid.
  public convenience init(bytes: [UInt8]) throws(BlobError) {
    try self.init(source: _ByteSource(bytes: bytes))
  }

  init(source: _ByteSource) throws(BlobError) {
    self.source = source
    self.header = try BlobReader._readHeader(source)
    self.labelStore = _LabelStore(source: source, info: header.info(.labels))
  }

  /// Reads and validates only the header of the blob at `path`.
  /// - Throws: `BlobError` if the file cannot be read or the header is invalid.
  public static func readHeader(path: String) throws(BlobError) -> BlobHeader {
    try _readHeader(_ByteSource(path: path))
  }

  /// Reads and validates only the header of an in-memory blob.
  public static func readHeader(bytes: [UInt8]) throws(BlobError) -> BlobHeader {
    try _readHeader(_ByteSource(bytes: bytes))
  }

  private static func _readHeader(_ source: _ByteSource) throws(BlobError) -> BlobHeader {
    var probe = [UInt8](repeating: 0, count: BlobHeader.probeSize)
    let size = try probe.withUnsafeMutableBufferPointer { (buffer) throws(BlobError) -> Int in
      let got = try source.read(at: 0, into: UnsafeMutableRawBufferPointer(buffer))
      return try BlobHeader.announcedSize(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<got]))
    }
    let bytes = try source.readExactly(at: 0, count: size, section: .header)
    return try bytes.withUnsafeBufferPointer { (buffer) throws(BlobError) -> BlobHeader in
      try BlobHeader.parse(UnsafeRawBufferPointer(buffer), actualFileSize: source.size)
    }
  }

  // MARK: Sections

  /// Streams the numbers of any number section (for an identification
  /// section, only the numbers).
  /// - Throws: `BlobError.misuse` if the blob has no such section.
  public func numbers(_ section: BlobSection) throws(BlobError) -> NumberIterator {
    NumberIterator(cursor: try _cursor(section))
  }

  /// Streams the entries of a section that carries labels
  /// (``BlobSection/identification`` or ``BlobSection/identificationAdds``).
  public func entries(_ section: BlobSection) throws(BlobError) -> IdentificationIterator {
    guard section.carriesLabels else {
      throw BlobError.misuse("the \(section) section carries no labels")
    }
    return IdentificationIterator(cursor: try _cursor(section))
  }

  /// Full snapshot: streams the blocking numbers.
  public func blocking() throws(BlobError) -> NumberIterator {
    try _require(.full)
    return try numbers(.blocking)
  }

  /// Full snapshot: streams the identification entries.
  public func identification() throws(BlobError) -> IdentificationIterator {
    try _require(.full)
    return try entries(.identification)
  }

  /// Delta: streams the blocking numbers to remove.
  public func blockingRemoves() throws(BlobError) -> NumberIterator {
    try _require(.delta)
    return try numbers(.blockingRemoves)
  }

  /// Delta: streams the blocking numbers to add.
  public func blockingAdds() throws(BlobError) -> NumberIterator {
    try _require(.delta)
    return try numbers(.blockingAdds)
  }

  /// Delta: streams the identification numbers to remove.
  public func identificationRemoves() throws(BlobError) -> NumberIterator {
    try _require(.delta)
    return try numbers(.identificationRemoves)
  }

  /// Delta: streams the identification entries to add.
  public func identificationAdds() throws(BlobError) -> IdentificationIterator {
    try _require(.delta)
    return try entries(.identificationAdds)
  }

  // MARK: Labels

  /// The number of labels in the dictionary.
  public var labelCount: Int { Int(labelStore.count) }

  /// The text of label `id`, read on demand (a small cache keeps recent ones).
  /// - Throws: `BlobError.unknownLabel` or `BlobError.corrupt`.
  public func label(_ id: UInt32) throws(BlobError) -> String {
    try labelStore.label(id)
  }

  // MARK: Whole-blob reads

  /// Reads a full snapshot into memory (tests and small data).
  public func readSnapshot() throws(BlobError) -> Snapshot {
    try _require(.full)
    return Snapshot(
      version: header.version,
      blocking: try _collect(.blocking),
      identification: try _collectEntries(.identification))
  }

  /// Reads a delta into memory (tests and small data).
  public func readDelta() throws(BlobError) -> SnapshotDelta {
    try _require(.delta)
    return SnapshotDelta(
      baseVersion: header.baseVersion, baseDigest: header.baseDigest,
      targetVersion: header.version, targetDigest: header.contentDigest,
      blockingRemoves: try _collect(.blockingRemoves),
      blockingAdds: try _collect(.blockingAdds),
      identificationRemoves: try _collect(.identificationRemoves),
      identificationAdds: try _collectEntries(.identificationAdds))
  }

  // MARK: Internals

  func _cursor(_ section: BlobSection) throws(BlobError) -> _SectionCursor {
    guard section.isNumberSection, let info = header.info(section) else {
      throw BlobError.misuse("a \(header.kind) blob has no \(section) number section")
    }
    return _SectionCursor(
      source: source, info: info, labelCount: labelStore.count, formatVersion: header.formatVersion,
      statistics: _statistics)
  }

  var _source: _ByteSource { source }
  var _labels: _LabelStore { labelStore }

  private func _require(_ kind: BlobKind) throws(BlobError) {
    guard header.kind == kind else { throw BlobError.wrongKind(expected: kind, actual: header.kind) }
  }

  private func _collect(_ section: BlobSection) throws(BlobError) -> [Int64] {
    let iterator = try numbers(section)
    var out = [Int64]()
    out.reserveCapacity(Int(min(iterator.count, 1 << 24)))
    while let chunk = try iterator.nextChunk() {
      switch chunk {
      case .run(let range): out.append(contentsOf: range)
      case .numbers(let numbers): out.append(contentsOf: numbers)
      }
    }
    return out
  }

  private func _collectEntries(_ section: BlobSection) throws(BlobError) -> [IdentificationEntry] {
    let iterator = try entries(section)
    var out = [IdentificationEntry]()
    while let record = try iterator.next() {
      out.append(IdentificationEntry(number: record.number, label: try label(record.labelID)))
    }
    return out
  }
}

@available(*, unavailable)
extension BlobReader: Sendable {}
