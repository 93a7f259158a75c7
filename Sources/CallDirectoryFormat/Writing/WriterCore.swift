/// The shared machinery of ``FullSnapshotWriter`` and ``DeltaWriter``:
/// sections in canonical order, the label dictionary, the header.
///
/// The header is written first as zeros and patched at the end, so every
/// section streams straight to the sink in file order; nothing is staged.
final class _WriterCore {
  let sink: any BlobSink
  let kind: BlobKind
  /// The dataset name recorded in the header (`""` for none).
  let dataset: String
  private let order: [BlobSection]
  private var index = -1
  private var current: _NumberSectionWriter?
  private var infos = [BlobSectionInfo]()
  private var offset: UInt64
  private(set) var labelBytes: [[UInt8]]?
  /// A dictionary read from storage as its section is written, instead of
  /// `labelBytes` (``LabelStream``).
  private var streamedLabels: (any LabelStream)?
  private var finished = false
  private var failed = false

  /// Reserves the header in `sink`.
  /// - Throws: `BlobError.datasetTooLong` or `BlobError.datasetContainsNUL`
  ///   for a dataset name the header cannot hold (nothing is written then),
  ///   or the sink's error.
  init(sink: any BlobSink, kind: BlobKind, dataset: String) throws(BlobError) {
    try _DatasetField.validate(dataset)
    self.sink = sink
    self.kind = kind
    self.dataset = dataset
    self.order = kind.sectionOrder
    let size = BlobHeader.headerSize(
      sectionCount: order.count, formatVersion: BlobHeader.currentFormatVersion)
    self.offset = UInt64(size)
    let zeros = [UInt8](repeating: 0, count: size)
    try sink.write(zeros)
  }

  deinit {
    if !finished { sink.abandon() }
  }

  /// Runs a mutating operation. Validation and misuse errors leave the
  /// writer as it was; an I/O error abandons the sink and fails the writer.
  func guarded<T>(_ body: () throws(BlobError) -> T) throws(BlobError) -> T {
    guard !failed else { throw BlobError.misuse("the writer failed earlier and cannot continue") }
    guard !finished else { throw BlobError.misuse("the writer has already finished") }
    do {
      return try body()
    } catch {
      if case .io = error { fail() }
      throw error
    }
  }

  /// Fails the writer and abandons the sink: for an error found after
  /// part of an append went out, when the output can no longer be trusted.
  func fail() {
    guard !failed else { return }
    failed = true
    sink.abandon()
  }

  /// The writer for `section`, closing earlier sections as needed.
  func section(_ section: BlobSection) throws(BlobError) -> _NumberSectionWriter {
    if let current, current.section == section { return current }
    guard let target = order.firstIndex(of: section) else {
      throw BlobError.misuse("a \(kind) blob has no \(section) section")
    }
    guard target > index else {
      throw BlobError.misuse("\(section) entries must come before \(order[index]) entries")
    }
    try _advance(to: target)
    let writer = _NumberSectionWriter(section: section, sink: sink)
    current = writer
    return writer
  }

  /// Checks and records the label dictionary (before the labels section).
  func setLabels(_ labels: [String]) throws(BlobError) {
    guard labelBytes == nil, streamedLabels == nil else { throw BlobError.misuse("labels were already set") }
    guard let labelsIndex = order.firstIndex(of: .labels), index < labelsIndex else {
      throw BlobError.misuse("labels must be set before \(order[index]) entries")
    }
    guard labels.count < Int(UInt32.max) else { throw BlobError.labelDictionaryTooLarge }
    var seen = Set<[UInt8]>()
    var bytes = [[UInt8]]()
    bytes.reserveCapacity(labels.count)
    var total: UInt64 = 0
    for label in labels {
      let utf8 = Array(label.utf8)
      guard utf8.count <= BlobLimits.maxLabelBytes else {
        throw BlobError.labelTooLong(byteCount: utf8.count)
      }
      guard seen.insert(utf8).inserted else { throw BlobError.duplicateLabel(label) }
      total += UInt64(utf8.count)
      bytes.append(utf8)
    }
    guard total <= UInt64(UInt32.max) else { throw BlobError.labelDictionaryTooLarge }
    labelBytes = bytes
  }

  /// Records a label dictionary that `labels` streams when its section is
  /// written (before the labels section, like ``setLabels(_:)``).
  func setLabels(streaming labels: any LabelStream) throws(BlobError) {
    guard labelBytes == nil, streamedLabels == nil else { throw BlobError.misuse("labels were already set") }
    guard let labelsIndex = order.firstIndex(of: .labels), index < labelsIndex else {
      throw BlobError.misuse("labels must be set before \(order[index]) entries")
    }
    guard labels.labelCount >= 0, labels.labelCount < Int(UInt32.max) else { throw BlobError.labelDictionaryTooLarge }
    streamedLabels = labels
  }

  /// Throws unless `id` names a label of a held dictionary.
  func checkLabel(_ id: UInt32) throws(BlobError) -> [UInt8] {
    if streamedLabels != nil {
      throw BlobError.misuse("entries of a streamed label dictionary are appended with their label's bytes")
    }
    guard let labelBytes, Int(id) < labelBytes.count else {
      throw BlobError.unknownLabel(id: id, labelCount: labelBytes?.count ?? 0)
    }
    return labelBytes[Int(id)]
  }

  /// Throws unless `id` names a label of the dictionary, held or streamed
  /// (a delta's adds, whose labels enter no digest).
  func checkLabelID(_ id: UInt32) throws(BlobError) {
    let count = labelBytes?.count ?? streamedLabels?.labelCount ?? 0
    guard Int(id) < count else { throw BlobError.unknownLabel(id: id, labelCount: count) }
  }

  /// Throws unless `id` names a label of the streamed dictionary.
  func checkStreamedLabel(_ id: UInt32) throws(BlobError) {
    guard let streamedLabels else {
      throw BlobError.misuse("a label's bytes are given only with a streamed dictionary (setLabels(streaming:))")
    }
    guard Int(id) < streamedLabels.labelCount else {
      throw BlobError.unknownLabel(id: id, labelCount: streamedLabels.labelCount)
    }
  }

  /// Closes every section, patches the header and commits the sink.
  func finish(
    version: UInt64, baseVersion: UInt64, digest: ContentDigest, baseDigest: ContentDigest
  ) throws(BlobError) -> BlobHeader {
    try _advance(to: order.count)
    let header = BlobHeader(
      formatVersion: BlobHeader.currentFormatVersion, kind: kind, version: version,
      baseVersion: baseVersion, contentDigest: digest, baseDigest: baseDigest,
      fileSize: offset, sections: infos, dataset: dataset)
    let bytes = header.serialized()
    try bytes.withUnsafeBufferPointer { (buffer) throws(BlobError) in
      try sink.overwrite(at: 0, with: UnsafeRawBufferPointer(buffer))
    }
    try sink.commit()
    finished = true
    return header
  }

  private func _advance(to target: Int) throws(BlobError) {
    if let current {
      let result = try current.finish()
      _record(current.section, result.count, result.length, result.checksum)
      self.current = nil
    }
    var next = index + 1
    while next < target {
      let section = order[next]
      if section == .labels {
        try _writeLabels()
      } else {
        _record(section, 0, 0, 0)
      }
      next += 1
    }
    index = target
  }

  private func _record(_ section: BlobSection, _ count: UInt64, _ length: UInt64, _ checksum: UInt32) {
    infos.append(BlobSectionInfo(
      section: section, entryCount: count, offset: offset, length: length, checksum: checksum))
    offset += length
  }

  /// Writes `(count + 1)` UInt32 offsets, then the UTF-8 text.
  private func _writeLabels() throws(BlobError) {
    if let streamedLabels {
      do {
        try _writeStreamedLabels(streamedLabels)
      } catch {
        // Part of the section may have gone out.
        fail()
        throw error
      }
      return
    }
    let labels = labelBytes ?? []
    labelBytes = labels
    var out = _SectionChunker(sink: sink)
    var position: UInt32 = 0
    try out.append(position)
    for label in labels {
      position += UInt32(label.count)
      try out.append(position)
    }
    for label in labels {
      try out.append(label)
    }
    let (length, checksum) = try out.finish()
    _record(.labels, UInt64(labels.count), length, checksum)
  }

  /// Writes a streamed dictionary: one walk for the offsets (checking each
  /// label: at most ``BlobLimits/maxLabelBytes``, strictly ascending by
  /// bytes, so each once), a second for the text.
  private func _writeStreamedLabels(_ labels: any LabelStream) throws(BlobError) {
    var out = _SectionChunker(sink: sink)
    var position: UInt64 = 0
    var count = 0
    var previous: [UInt8] = []
    try out.append(UInt32(0))
    try labels.forEachLabel { (label) throws(BlobError) in
      guard label.count <= BlobLimits.maxLabelBytes else { throw BlobError.labelTooLong(byteCount: label.count) }
      if count > 0 {
        guard previous.lexicographicallyPrecedes(label) else {
          throw BlobError.misuse("a streamed label dictionary must ascend by bytes, each label once")
        }
      }
      previous.removeAll(keepingCapacity: true)
      previous.append(contentsOf: label)
      position += UInt64(label.count)
      guard position <= UInt64(UInt32.max) else { throw BlobError.labelDictionaryTooLarge }
      try out.append(UInt32(position))
      count += 1
    }
    guard count == labels.labelCount else {
      throw BlobError.misuse("the streamed label dictionary gave \(count) labels, not \(labels.labelCount)")
    }
    var again = 0
    try labels.forEachLabel { (label) throws(BlobError) in
      again += 1
      try out.append(label)
    }
    guard again == count, out.byteCount == UInt64(4 * (count + 1)) + position else {
      throw BlobError.misuse("the streamed label dictionary changed between its two walks")
    }
    let (length, checksum) = try out.finish()
    _record(.labels, UInt64(count), length, checksum)
  }
}

/// Writes one section's bytes to a sink in 64 KiB chunks, keeping its
/// length and CRC-32C.
private struct _SectionChunker {
  private let sink: any BlobSink
  private var crc = CRC32C()
  private var chunk: [UInt8] = []
  private var written: UInt64 = 0

  init(sink: any BlobSink) {
    self.sink = sink
    chunk.reserveCapacity(1 << 16)
  }

  /// Bytes appended so far, written or not.
  var byteCount: UInt64 { written + UInt64(chunk.count) }

  mutating func append(_ value: UInt32) throws(BlobError) {
    _appendLE(value, to: &chunk)
    try _flush(ifFull: true)
  }

  mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(BlobError) {
    chunk.append(contentsOf: bytes)
    try _flush(ifFull: true)
  }

  /// Writes what is left; returns the section's length and checksum.
  mutating func finish() throws(BlobError) -> (length: UInt64, checksum: UInt32) {
    try _flush(ifFull: false)
    return (written, crc.value)
  }

  private mutating func _flush(ifFull: Bool) throws(BlobError) {
    guard !chunk.isEmpty, !ifFull || chunk.count >= 1 << 16 else { return }
    chunk.withUnsafeBytes { crc.update($0) }
    try sink.write(chunk)
    written += UInt64(chunk.count)
    chunk.removeAll(keepingCapacity: true)
  }
}

/// A label dictionary too large to hold, read from storage while a
/// writer's labels section is written (``FullSnapshotWriter/setLabels(streaming:)``).
package protocol LabelStream {
  /// How many labels the dictionary holds.
  var labelCount: Int { get }
  /// Calls `body` with each label's UTF-8 bytes in id order, which must be
  /// strictly ascending by bytes; the writer walks the dictionary twice
  /// (offsets, then text), and both walks must give the same labels.
  func forEachLabel(_ body: (UnsafeRawBufferPointer) throws(BlobError) -> Void) throws(BlobError)
}

@available(*, unavailable)
extension _WriterCore: Sendable {}
