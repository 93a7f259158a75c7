import CalldirSystem

/// Writes a full snapshot blob from entries streamed in ascending order.
///
/// Memory use is constant: one block and one frame are buffered, plus the
/// label dictionary. Call order: blocking numbers, then (after the labels
/// are set) identification entries, then ``finish()``.
///
///     let writer = try FullSnapshotWriter(path: "v42.cdir", version: 42,
///                                         labels: ["Telemarketing", "🚫 scam"])
///     try writer.appendBlocking(33_162_000_000...33_162_999_999)
///     try writer.appendBlocking(33_612_345_678)
///     try writer.appendIdentification(18_005_551_234, labelID: 0)
///     let header = try writer.finish()   // fsync + atomic rename
///
/// Appends throw `BlobError` for numbers out of `1...Int64.max-1`, out of
/// order, or repeated, and for unknown label ids; the writer stays usable
/// after such an error. An I/O error abandons the output.
public final class FullSnapshotWriter {
  private let core: _WriterCore
  private var digest = ContentDigestBuilder()
  /// The snapshot version recorded in the header.
  public let version: UInt64

  /// Writes atomically to `path` (temporary file, `fsync`, `rename`).
  /// - Throws: `BlobError` if the temporary file cannot be created, or the
  ///   labels or dataset name are invalid.
  public convenience init(
    path: String, version: UInt64, labels: [String]? = nil, dataset: String = ""
  ) throws(BlobError) {
    try self.init(sink: FileBlobSink(path: path), version: version, labels: labels, dataset: dataset)
  }

  /// Writes to `sink`.
  /// - Parameters:
  ///   - labels: The label dictionary (ids are indices), or `nil` to set it
  ///     later with ``setLabels(_:)``.
  ///   - dataset: The name of the dataset, recorded in the header
  ///     (``BlobHeader/dataset``); at most ``BlobLimits/maxDatasetBytes``
  ///     UTF-8 bytes, without NUL. `""` records none.
  /// - Throws: `BlobError.datasetTooLong`, `BlobError.datasetContainsNUL`,
  ///   a label error, or the sink's error.
  public init(
    sink: any BlobSink, version: UInt64, labels: [String]? = nil, dataset: String = ""
  ) throws(BlobError) {
    self.core = try _WriterCore(sink: sink, kind: .full, dataset: dataset)
    self.version = version
    if let labels { try core.setLabels(labels) }
  }

  /// Sets the label dictionary; ids are the indices. Labels must be unique
  /// (byte-wise) and at most ``BlobLimits/maxLabelBytes`` long.
  /// - Throws: `BlobError` if labels were set already, identification
  ///   entries were appended already, or a label is invalid.
  public func setLabels(_ labels: [String]) throws(BlobError) {
    try core.guarded { () throws(BlobError) in try core.setLabels(labels) }
  }

  /// Sets a label dictionary that is read from storage when its section
  /// is written (after the blocking numbers) instead of being held: a
  /// build whose labels pass its memory limit. Identification entries are
  /// then appended with their label's bytes
  /// (``appendIdentification(_:labelID:label:)``), which the writer cannot
  /// look up. The labels must ascend by bytes (the order the one-shot
  /// writers give the dictionary).
  /// - Throws: `BlobError` if labels were set already or entries past the
  ///   labels section were appended; a label that is too long or out of
  ///   order fails the writer when the section is written.
  package func setLabels(streaming labels: any LabelStream) throws(BlobError) {
    try core.guarded { () throws(BlobError) in try core.setLabels(streaming: labels) }
  }

  /// Appends the next blocking number.
  public func appendBlocking(_ number: Int64) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(.blocking)
      try writer.check(number)
      try writer.append(number, label: 0)
      digest._appendBlocking(number)
    }
  }

  /// Appends the next blocking numbers, strictly ascending: the same bytes
  /// as appending them one at a time, without the per-number overhead.
  ///
  /// The whole buffer is validated before anything is appended; on a
  /// validation error nothing is appended and the writer stays usable. Large
  /// buffers are hashed for the content digest on a second thread while
  /// this one encodes the blocks.
  public func appendBlocking(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(.blocking)
      try writer.check(contentsOf: numbers)
      if numbers.count < FullSnapshotWriter.parallelDigestThreshold {
        try writer.append(contentsOf: numbers)
        digest._appendBlocking(contentsOf: numbers)
        return
      }
      var failure: BlobError?
      Parallel.run(
        background: { digest._appendBlocking(contentsOf: numbers) },
        foreground: {
          do throws(BlobError) {
            try writer.append(contentsOf: numbers)
          } catch {
            failure = error
          }
        })
      if let failure { throw failure }
    }
  }

  /// Buffers at least this long hash on a second thread (below it the
  /// thread hand-off costs more than it saves).
  static let parallelDigestThreshold = 1 << 16

  /// Appends blocking numbers that are strictly ascending by construction
  /// (a compiler's sorted, deduplicated output): the same bytes as
  /// ``appendBlocking(contentsOf:)``, but checked a slice of
  /// ``checkedSliceLength`` numbers at a time, just before the slice is
  /// encoded (and hashed, unless `hashingAside`) while it is in the cache,
  /// instead of in a pass of its own over the whole buffer first.
  ///
  /// A number out of order or out of range still throws its `BlobError`,
  /// but the slices before it have gone out by then: the writer fails and
  /// abandons its output, so nothing is committed.
  ///
  /// - Parameter hashingAside: Whether a large buffer is hashed for the
  ///   content digest on a second thread. Pass false when other work keeps
  ///   the other cores busy (another blob being written): one pass over
  ///   the numbers then costs less than two.
  package func appendBlocking(ascending numbers: UnsafeBufferPointer<Int64>, hashingAside: Bool) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(.blocking)
      let aside = hashingAside && numbers.count >= FullSnapshotWriter.parallelDigestThreshold
      var failure: BlobError?
      func encode() {
        var start = 0
        while start < numbers.count, failure == nil {
          let slice = UnsafeBufferPointer(rebasing: numbers[start..<min(numbers.count, start + Self.checkedSliceLength)])
          do throws(BlobError) {
            if aside {
              try writer.check(contentsOf: slice)
            } else if let first = slice.first, let last = slice.last {
              // Hashed first, its order checked on the way: a slice that
              // does not rise is then searched for the error to report.
              try writer.check(first)
              if last > BlobLimits.maxNumber || !digest._appendBlocking(checkingAscent: slice) {
                try writer.check(contentsOf: slice)
                throw BlobError.misuse("blocking numbers must ascend")
              }
            }
            try writer.append(contentsOf: slice)
          } catch {
            failure = error
          }
          start += slice.count
        }
      }
      if aside {
        // The digest of a buffer that turns out to be out of order is
        // never used: the writer fails below.
        Parallel.run(background: { digest._appendBlocking(contentsOf: numbers) }, foreground: encode)
      } else {
        encode()
      }
      if let failure {
        core.fail()
        throw failure
      }
    }
  }

  /// How many numbers ``appendBlocking(ascending:hashingAside:)`` checks
  /// at a time (256 KiB: checked in the cache, then encoded from it).
  static let checkedSliceLength = 1 << 15

  /// Appends consecutive blocking numbers (for example an expanded
  /// `33162######` pattern).
  /// - Complexity: O(1) space and encoding work when the range joins or
  ///   forms a run, in the blob and in the content digest alike (O(1)).
  public func appendBlocking(_ range: ClosedRange<Int64>) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let writer = try core.section(.blocking)
      try writer.check(range)
      try writer.append(range, label: 0)
      digest._appendBlocking(range)
    }
  }

  /// Appends the next identification entry.
  public func appendIdentification(_ number: Int64, labelID: UInt32) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let label = try core.checkLabel(labelID)
      let writer = try core.section(.identification)
      try writer.check(number)
      try writer.append(number, label: labelID)
      label.withUnsafeBytes { digest._appendIdentification(number, $0) }
    }
  }

  /// Appends the next identification entry of a streamed dictionary
  /// (``setLabels(streaming:)``): `label` must be the bytes of label
  /// `labelID`, which enter the content digest.
  package func appendIdentification(_ number: Int64, labelID: UInt32, label: UnsafeRawBufferPointer) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      try core.checkStreamedLabel(labelID)
      let writer = try core.section(.identification)
      try writer.check(number)
      try writer.append(number, label: labelID)
      digest._appendIdentification(number, label)
    }
  }

  /// Appends consecutive identification entries sharing one label.
  public func appendIdentification(_ range: ClosedRange<Int64>, labelID: UInt32) throws(BlobError) {
    try core.guarded { () throws(BlobError) in
      let label = try core.checkLabel(labelID)
      let writer = try core.section(.identification)
      try writer.check(range)
      try writer.append(range, label: labelID)
      label.withUnsafeBytes { bytes in
        for number in range { digest._appendIdentification(number, bytes) }
      }
    }
  }

  /// Completes the blob: closes the sections, writes the header (with the
  /// content digest computed along the way) and commits the sink.
  /// - Returns: The header written.
  @discardableResult
  public func finish() throws(BlobError) -> BlobHeader {
    try core.guarded { () throws(BlobError) in
      let contentDigest = digest.finalize()
      return try core.finish(
        version: version, baseVersion: 0, digest: contentDigest, baseDigest: .zero)
    }
  }
}

@available(*, unavailable)
extension FullSnapshotWriter: Sendable {}
