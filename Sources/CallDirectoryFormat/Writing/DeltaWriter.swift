/// Writes a delta blob: the four change lists between a base snapshot and a
/// target snapshot, each streamed in ascending order.
///
/// Call order: blocking removes, blocking adds, identification removes,
/// identification adds (labels set before the first add), then
/// ``finish()``. Any list may be empty. The base and target versions and
/// digests are recorded so a loader can refuse the delta on another base
/// (``BlobHeader/requireBase(version:digest:)``).
///
///     let writer = try DeltaWriter(path: "v42-v43.cdir",
///         baseVersion: 42, baseDigest: old, targetVersion: 43, targetDigest: new)
///     try writer.appendBlockingRemove(33_612_345_678)
///     try writer.appendBlockingAdd(33_700_000_000...33_700_099_999)
///     try writer.appendIdentificationRemove(18_005_551_234)   // label change:
///     try writer.setLabels(["Bank"])
///     try writer.appendIdentificationAdd(18_005_551_234, labelID: 0)  // remove + add
///     try writer.finish()
public final class DeltaWriter {
  private let core: _WriterCore
  /// The base snapshot version.
  public let baseVersion: UInt64
  /// The base snapshot content digest.
  public let baseDigest: ContentDigest
  /// The target snapshot version.
  public let targetVersion: UInt64
  /// The target snapshot content digest.
  public let targetDigest: ContentDigest

  /// Writes atomically to `path` (temporary file, `fsync`, `rename`).
  public convenience init(
    path: String, baseVersion: UInt64, baseDigest: ContentDigest, targetVersion: UInt64,
    targetDigest: ContentDigest, labels: [String]? = nil, dataset: String = ""
  ) throws(BlobError) {
    try self.init(
      sink: FileBlobSink(path: path), baseVersion: baseVersion, baseDigest: baseDigest,
      targetVersion: targetVersion, targetDigest: targetDigest, labels: labels, dataset: dataset)
  }

  /// Writes to `sink`.
  /// - Parameter dataset: The name of the dataset, recorded in the header
  ///   (``BlobHeader/dataset``); at most ``BlobLimits/maxDatasetBytes``
  ///   UTF-8 bytes, without NUL. `""` records none.
  /// - Throws: `BlobError.datasetTooLong`, `BlobError.datasetContainsNUL`,
  ///   a label error, or the sink's error.
  public init(
    sink: any BlobSink, baseVersion: UInt64, baseDigest: ContentDigest, targetVersion: UInt64,
    targetDigest: ContentDigest, labels: [String]? = nil, dataset: String = ""
  ) throws(BlobError) {
    self.core = try _WriterCore(sink: sink, kind: .delta, dataset: dataset)
    self.baseVersion = baseVersion
    self.baseDigest = baseDigest
    self.targetVersion = targetVersion
    self.targetDigest = targetDigest
    if let labels { try core.setLabels(labels) }
  }

  /// Sets the label dictionary used by identification adds.
  public func setLabels(_ labels: [String]) throws(BlobError) {
    try core.guarded { () throws(BlobError) in try core.setLabels(labels) }
  }

  /// Sets a label dictionary that is read from storage when its section
  /// is written (after the identification removes) instead of being held,
  /// as ``FullSnapshotWriter/setLabels(streaming:)`` does; the adds then
  /// name labels by id as with a held dictionary. The labels must ascend
  /// by bytes.
  /// - Throws: `BlobError` if labels were set already or identification
  ///   adds were appended; a label that is too long or out of order fails
  ///   the writer when the section is written.
  package func setLabels(streaming labels: any LabelStream) throws(BlobError) {
    try core.guarded { () throws(BlobError) in try core.setLabels(streaming: labels) }
  }

  /// Appends the next blocking number to remove.
  public func appendBlockingRemove(_ number: Int64) throws(BlobError) {
    try _append(.blockingRemoves, number)
  }

  /// Appends consecutive blocking numbers to remove.
  public func appendBlockingRemove(_ range: ClosedRange<Int64>) throws(BlobError) {
    try _append(.blockingRemoves, range)
  }

  /// Appends the next blocking number to add.
  public func appendBlockingAdd(_ number: Int64) throws(BlobError) {
    try _append(.blockingAdds, number)
  }

  /// Appends consecutive blocking numbers to add.
  public func appendBlockingAdd(_ range: ClosedRange<Int64>) throws(BlobError) {
    try _append(.blockingAdds, range)
  }

  /// Appends blocking numbers to remove, strictly ascending: the same bytes
  /// as appending them one at a time, without the per-number overhead.
  /// The whole buffer is checked first; on a check error nothing is appended.
  public func appendBlockingRemoves(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    try _append(.blockingRemoves, contentsOf: numbers)
  }

  /// Appends blocking numbers to add, strictly ascending: the same bytes
  /// as appending them one at a time, without the per-number overhead.
  /// The whole buffer is checked first; on a check error nothing is appended.
  public func appendBlockingAdds(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    try _append(.blockingAdds, contentsOf: numbers)
  }

  /// Appends the next identification number to remove.
  public func appendIdentificationRemove(_ number: Int64) throws(BlobError) {
    try _append(.identificationRemoves, number)
  }

  /// Appends consecutive identification numbers to remove.
  public func appendIdentificationRemove(_ range: ClosedRange<Int64>) throws(BlobError) {
    try _append(.identificationRemoves, range)
  }

  /// Appends the next identification entry to add.
  public func appendIdentificationAdd(_ number: Int64, labelID: UInt32) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      try core.checkLabelID(labelID)
      let writer = try core.section(.identificationAdds)
      try writer.check(number)
      try writer.append(number, label: labelID)
    }
  }

  /// Appends consecutive identification entries to add, sharing one label.
  public func appendIdentificationAdd(_ range: ClosedRange<Int64>, labelID: UInt32) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      try core.checkLabelID(labelID)
      let writer = try core.section(.identificationAdds)
      try writer.check(range)
      try writer.append(range, label: labelID)
    }
  }

  /// Completes the blob and commits the sink.
  /// - Returns: The header written.
  @discardableResult
  public func finish() throws(BlobError) -> BlobHeader {
    try core.guarded { () throws(BlobError) in
      try core.finish(
        version: targetVersion, baseVersion: baseVersion, digest: targetDigest,
        baseDigest: baseDigest)
    }
  }

  private func _append(_ section: BlobSection, _ number: Int64) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(section)
      try writer.check(number)
      try writer.append(number, label: 0)
    }
  }

  private func _append(_ section: BlobSection, contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(section)
      try writer.check(contentsOf: numbers)
      try writer.append(contentsOf: numbers)
    }
  }

  private func _append(_ section: BlobSection, _ range: ClosedRange<Int64>) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(section)
      try writer.check(range)
      try writer.append(range, label: 0)
    }
  }
}

@available(*, unavailable)
extension DeltaWriter: Sendable {}
