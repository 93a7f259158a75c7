import CallDirectorySources
import CalldirHost
import CalldirSystem
import PhoneNumbers

/// Where a source's pieces come from, chosen once per source
/// (``SnapshotCompiler/producer(for:spec:region:maxRangeSize:)``):
/// the reading thread fills pieces while the workers judge the ones before
/// (``SourcePiece``), and ``SnapshotCompiler`` folds them in file order.
protocol PieceProducer {
  associatedtype Piece: SourcePiece
  /// How many pieces are filled, worked or waiting to be folded at once.
  var window: Int { get }
  /// A new, empty piece.
  func makePiece() -> Piece
  /// Judges a filled piece, on a worker thread.
  var work: @Sendable (Piece) -> Void { get }
  /// Reads the whole source into `pipeline`'s pieces, each folded by
  /// `fold` in file order; `reserve` makes room for about as many numbers
  /// as the source may hold. Returns the source's summary, completing
  /// `folded` (what the pieces' reader saw) when the pieces tell it.
  func produce(
    into pipeline: OrderedPipeline<Piece>, fold: (Piece) throws(CompileError) -> Void, reserve: (Int) -> Void,
    folded: () -> SourceSummary
  ) throws -> SourceSummary
}

/// A line-by-line blocking or allow source (``_LineIndependentReader``):
/// this thread cuts the file into pieces of whole lines, or, for a regular
/// UTF-8 file, into stretches each worker reads itself; one worker per
/// core parses and judges them (``LineChunkJob``).
struct LinePieces: PieceProducer {
  let reader: any _LineIndependentReader
  let policy: RecordAcceptance.Policy
  let region: RegionMetadata?
  /// Called with the share of the file read, e.g. `reading block.txt: 40%`.
  let progress: ((String) -> Void)?
  /// The source's path as reports name it.
  let path: String

  var window: Int { 3 * Parallel.coreCount }

  func makePiece() -> LineChunkJob { LineChunkJob() }

  var work: @Sendable (LineChunkJob) -> Void {
    let format = type(of: reader)
    let (policy, region, cells) = (self.policy, self.region, reader._cells)
    return { $0.run(format: format, policy: policy, region: region, cells: cells) }
  }

  func produce(
    into pipeline: OrderedPipeline<LineChunkJob>, fold: (LineChunkJob) throws(CompileError) -> Void,
    reserve: (Int) -> Void, folded: () -> SourceSummary
  ) throws -> SourceSummary {
    if case .file(let path) = reader.input, let file = try _SharedFile.openRegular(path),
      let skip = try utf8TextStart(of: file)
    {
      // A regular UTF-8 file: each worker reads its own stretch.
      reserve(file.size / 8)
      let stretch = max(1, reader._chunkSize) * 2
      var start = 0
      repeat {
        let end = start + stretch
        try pipeline.nextJob(fold: fold).load(
          _FileStretch(file: file, start: start, end: end, isLast: end >= file.size, skip: skip))
        pipeline.submit()
        start = end
        if let progress, file.size > 0 { progress("reading \(self.path): \(min(100, start * 100 / file.size))%") }
      } while start < file.size
      try pipeline.finish(fold: fold)
      return folded()
    }
    let bytes = try _ByteInput(reader.input, chunkSize: reader._chunkSize)
    // A number line takes at least 8 bytes or so (`+` and 7 digits, LF):
    // room for that many, reserved now, is only touched as it fills.
    if let size = bytes.size { reserve(size / 8) }
    let chunker = try _LineChunker(bytes)
    while let piece = try chunker.next() {
      try pipeline.nextJob(fold: fold).load(piece)
      pipeline.submit()
      if let progress, let size = bytes.size, size > 0 {
        progress("reading \(self.path): \(min(100, bytes.bytesRead * 100 / size))%")
      }
    }
    try pipeline.finish(fold: fold)
    var summary = folded()
    bytes.sign(&summary)
    return summary
  }

  /// Where the text of `file` starts: after its UTF-8 byte-order mark (0
  /// without one), or nil when it is read through ``_ByteInput``: a UTF-16
  /// or UTF-32 mark says it needs a converter, or its lines end in CR alone.
  private func utf8TextStart(of file: _SharedFile) throws(SourceError) -> Int? {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LineEndings.sampleBytes) {
      (start) throws(SourceError) -> Int? in
      guard let base = start.baseAddress else { return 0 }
      let got = try file.read(at: 0, count: start.count, into: base)
      let skip: Int
      switch _ByteOrderMark(UnsafeBufferPointer(start: base, count: min(got, 4))) {
      case nil: skip = 0
      case .utf8: skip = 3
      case .utf16, .utf32: return nil
      }
      return LineEndings.endInCarriageReturnsAlone(UnsafeBufferPointer(start: base, count: got)) ? nil : skip
    }
  }
}

/// Any source: this thread reads the reader's events into batches while
/// the other cores judge the previous ones (``RecordBatch``).
struct EventBatches: PieceProducer {
  let reader: any SourceReader
  let policy: RecordAcceptance.Policy
  let region: RegionMetadata?
  /// Whether every accepted record is kept in order with its label, line
  /// and date: an identify list, or reports held for evidence rules.
  let inOrder: Bool

  var window: Int { 2 * max(1, Parallel.coreCount - 1) }

  func makePiece() -> RecordBatch { RecordBatch(capacity: 1 << 15) }

  var work: @Sendable (RecordBatch) -> Void {
    let (policy, region, inOrder) = (self.policy, self.region, self.inOrder)
    return { $0.normalize(with: policy, region: region, inOrder: inOrder) }
  }

  func produce(
    into pipeline: OrderedPipeline<RecordBatch>, fold: (RecordBatch) throws(CompileError) -> Void,
    reserve: (Int) -> Void, folded: () -> SourceSummary
  ) throws -> SourceSummary {
    let summary = try reader.read { event in
      let batch = try pipeline.nextJob(fold: fold)
      switch event {
      case .record(let record): batch.append(record)
      case .range(let item): batch.append(range: item.range, line: item.line, text: item.text ?? "")
      case .issue(let issue): batch.append(issue: issue)
      }
      if batch.isFull { pipeline.submit() }
    }
    if !(try pipeline.nextJob(fold: fold)).isEmpty { pipeline.submit() }
    try pipeline.finish(fold: fold)
    return summary
  }
}

extension SnapshotCompiler {
  /// How `spec`'s `reader` is read: a line-by-line blocking or allow source
  /// in pieces of lines, any other one as events; either way judged by the
  /// source's one policy.
  func producer(
    for reader: any SourceReader, spec: SourceSpec, region: RegionMetadata?, maxRangeSize: Int64
  ) -> any PieceProducer {
    // Rejects name the cell keys only where the source may set them.
    let policy = RecordAcceptance.Policy(
      spec, region: region, maxRangeSize: maxRangeSize, normalizer: normalizer,
      cellKeys: CellKeys.of(spec, registry: registry), labels: labelSanitizer)
    let inOrder = spec.list == .identify || spec.weighsEvidence
    if readsLinesInPieces, !inOrder, let lines = reader as? any _LineIndependentReader {
      return LinePieces(reader: lines, policy: policy, region: region, progress: progress, path: spec.writtenPath)
    }
    return EventBatches(reader: reader, policy: policy, region: region, inOrder: inOrder)
  }
}
