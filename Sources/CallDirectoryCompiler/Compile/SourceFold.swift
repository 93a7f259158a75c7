import CallDirectorySources
import CallDirectoryFormat
import CalldirSystem

/// Folds one source's pieces (``PieceYield``), in file order, into the
/// lists and the source's tally: rejects to the rejects report, numbers
/// and ranges to the lists (or held for the evidence rules), counts to the
/// tally and the summary. It judges nothing: the workers did
/// (``RecordAcceptance/Policy``).
struct SourceFold {
  var tally: SourceTally
  /// The reports held for the source's evidence rules, nil without them.
  var evidence: EvidenceTally?
  /// What the pieces' reader saw, summed (a reader's batches carry none).
  private(set) var counts = SourceSummary()
  /// The bytes and checksum of the stretches the workers read, when they
  /// read the file themselves.
  private var stretches: (bytes: Int, checksum: UInt32)?

  init(tally: SourceTally, evidence: EvidenceTally?) {
    self.tally = tally
    self.evidence = evidence
  }

  /// What the pieces' reader saw, with the bytes and checksum of the
  /// stretches the workers read.
  var summary: SourceSummary {
    var summary = counts
    if let stretches {
      summary.bytes = stretches.bytes
      summary.checksum = stretches.checksum
    }
    return summary
  }

  /// Folds `piece` into `lists` and resets it.
  mutating func fold(_ piece: some SourcePiece, into lists: inout CollectedLists) throws(CompileError) {
    try fold(piece.yield, into: &lists)
    // The yield's arrays are no longer shared: emptied, they keep their room.
    piece.reset()
  }

  /// Folds what a piece gave: its numbers in one copy (the fast path of
  /// both ways of reading), else its entries one by one.
  private mutating func fold(_ yield: PieceYield, into lists: inout CollectedLists) throws(CompileError) {
    if let error = yield.readError { throw .source(error) }
    if let contents = yield.stretchContents {
      let (bytes, checksum) = stretches ?? (0, CRC32C().value)
      stretches = (
        bytes + contents.byteCount,
        CRC32C.combine(checksum, contents.checksum, secondLength: contents.byteCount)
      )
    }
    for reject in yield.rejects {
      try tally.reject(
        line: counts.physicalLines + reject.line, reason: reject.reason, text: reject.text, numbers: reject.numbers)
    }
    // A piece read from lines has its numbers summed up and its ranges
    // apart; a reader's batch, its numbers alone or its entries.
    if let order = yield.order {
      try lists.add(
        piece: yield.numbers, order: order, laidOutByLength: yield.laidOutByLength, repeats: yield.repeats)
      try lists.add(ranges: yield.ranges)
    } else if !yield.numbers.isEmpty {
      try lists.add(yield.numbers)
    }
    for entry in yield.entries { try take(entry, priority: tally.spec.priority, into: &lists) }
    tally.accept(lines: yield.acceptedLines, numbers: yield.acceptedNumbers)
    tally.typeFiltered += yield.dropped
    tally.national.add(yield.national)
    counts.records += yield.summary.records
    counts.ranges += yield.summary.ranges
    counts.issues += yield.summary.issues
    counts.physicalLines += yield.summary.physicalLines
    counts.cells.add(yield.summary.cells)
  }

  /// An accepted record taken on its own: a report held for the evidence
  /// rules, an identification entry, a number or a range.
  private mutating func take(
    _ entry: PieceYield.Entry, priority: Int, into lists: inout CollectedLists
  ) throws(CompileError) {
    switch entry {
    case .number(let number):
      try lists.add(CollectionOfOne(number))
    case .report(let number, let label, let line, let day):
      if evidence != nil {
        evidence?.add(number: number, label: label, line: line, day: day)
        if let tally = evidence { try lists.spillIfNeeded(besides: tally.buffered, spilling: tally.spill) }
      } else {
        try lists.addIdentification(number: number, label: label ?? "", priority: priority, line: line)
      }
    case .range(let range):
      try lists.add(ranges: CollectionOfOne(range))
    }
  }
}
