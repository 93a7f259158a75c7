import CallDirectoryFormat
import CallDirectorySources
import CalldirHost
import CalldirSystem
import PhoneNumbers
import UnicodeText

/// Turns a build config into a `CompiledSnapshot`: reads every source,
/// normalizes every number, cleans labels, applies allowlists, resolves label
/// conflicts, sorts and deduplicates.
///
/// Readers report raw records; this type decides policy. Every rejected line
/// goes to the reject log as `file:line: reason`.
public struct SnapshotCompiler {
  /// How numbers are read.
  public var normalizer: PhoneNumberNormalizer
  /// Which source formats exist.
  public var registry: SourceFormatRegistry
  /// How labels are cleaned.
  public var labelSanitizer: LabelSanitizer
  /// Called now and then with a short description of the work in progress.
  public var progress: ((String) -> Void)?
  /// Bytes the collected numbers may take; past it, sorted runs are spilled
  /// to `spillDirectory` and merged. Nil: everything stays in memory.
  public var memoryLimit: Int?
  /// Where runs are spilled (the store's snapshots directory in a build).
  public var spillDirectory: String?
  /// The build's reference date: complaint reports are weighed as of this
  /// day (`maxAgeDays`), and reports dated after it do not count.
  public var asOf = CalendarDay.today()

  public init(
    normalizer: PhoneNumberNormalizer = PhoneNumberNormalizer(),
    registry: SourceFormatRegistry = .standard,
    labelSanitizer: LabelSanitizer = LabelSanitizer(),
    progress: ((String) -> Void)? = nil
  ) {
    self.normalizer = normalizer
    self.registry = registry
    self.labelSanitizer = labelSanitizer
    self.progress = progress
  }

  /// Compiles `config`, writing rejected lines to `rejects` and losing
  /// labels to `conflicts`. Sources in `absent` are not read (their files
  /// vanished and the build goes on without them, with `--force`).
  ///
  /// Every source is read whatever its rejects: the guards that refuse a
  /// build (reject ratio, removals) are the publisher's, and they need the
  /// whole picture.
  package func compile(
    _ config: BuildConfig, rejects: RejectLog, conflicts: ConflictLog? = nil, absent: Set<Int> = []
  ) throws(CompileError) -> CompiledSnapshot {
    var lists = CollectedLists()
    if let memoryLimit, let spillDirectory {
      lists.spill = SpillPolicy(memoryLimit: memoryLimit, files: SpillFiles(directory: spillDirectory))
    }
    var reports: [SourceReport] = []
    var statistics = CompileStatistics()
    let started = MonotonicInstant.now()

    for spec in config.sources {
      reports.append(
        try compileSource(
          spec, config: config, rejects: rejects, skipped: absent.contains(spec.index), into: &lists,
          statistics: &statistics))
    }

    let readMilliseconds = MonotonicInstant.now().milliseconds(since: started)
    progress?("sorting")
    let identification = try lists.resolveIdentification(
      conflicts: conflicts, keepingWinningSources: config.liveCallerID != nil)
    var contributions = identification.contributions
    let blocking = try lists.blockingEntries(statistics: &statistics, contributions: &contributions)
    statistics.identification = identification.count
    statistics.labels = identification.labelCount
    statistics.conflicts = identification.conflicts
    statistics.duplicates += identification.duplicates
    for index in reports.indices {
      reports[index].contribution = contributions[reports[index].spec.index] ?? SourceContribution()
    }

    var snapshot = CompiledSnapshot(
      blocking: blocking,
      identification: [],
      labels: [],
      statistics: statistics,
      sources: reports,
      readMilliseconds: readMilliseconds
    )
    switch identification {
    case .memory(let resolution):
      snapshot.identification = resolution.entries
      snapshot.identificationSources = resolution.winningSources
      snapshot.labels = resolution.labels
    case .spilled(let resolution):
      snapshot.spilledIdentification = resolution.entries
    }
    return snapshot
  }

  /// Reads one source of `config` into `lists`: its report (an absent
  /// source's, when `skipped`), its rejects counted in `statistics`.
  private func compileSource(
    _ spec: SourceSpec, config: BuildConfig, rejects: RejectLog, skipped: Bool, into lists: inout CollectedLists,
    statistics: inout CompileStatistics
  ) throws(CompileError) -> SourceReport {
    let region = try self.region(for: spec)
    var tally = SourceTally(spec: spec, rejects: rejects)
    lists.begin(source: spec.index, list: spec.list)
    defer { lists.endSource() }
    guard !skipped else {
      return SourceReport(spec: spec, summary: SourceSummary(), accepted: 0, rejected: 0, isAbsent: true)
    }
    let reader: any SourceReader
    do {
      reader = try registry.makeReader(for: spec)
    } catch {
      throw .config(error)
    }
    progress?("reading \(tally.path)")
    let summary: SourceSummary
    var evidence: EvidenceCounts?
    let check = NumberCheck(rules: spec.numberRules, region: region, plan: normalizer.plan)
    // Rejects name the cell keys only where the source may set them.
    let cellKeys = CellKeys.of(spec, registry: registry)
    do {
      if spec.list != .identify, !spec.weighsEvidence, let lineReader = reader as? any _LineIndependentReader {
        summary = try readInPieces(
          lineReader, region: region, maxRangeSize: config.maxRangeSize, check: check, into: &lists, tally: &tally)
      } else {
        (summary, evidence) = try readInBatches(
          reader, region: region, maxRangeSize: config.maxRangeSize, check: check, cellKeys: cellKeys,
          into: &lists, tally: &tally)
      }
    } catch let error as SourceError {
      throw .source(error.locating(source: spec.keyPath))
    } catch let error as CompileError {
      throw error
    } catch {
      throw .source(.file(FileError(operation: "read", path: spec.path, errno: .ioError, detail: "\(error)")))
    }
    if let region, let finding = WrongRegionFinding.check(
      tally.national, source: tally.path, shownAs: spec.shownName, region: region,
      limit: spec.numberRules.maxInvalidRatio ?? config.maxInvalidRatio, normalizer: normalizer)
    {
      throw .wrongRegion(finding)
    }
    statistics.rejected += tally.rejected
    var report = SourceReport(
      spec: spec, summary: summary, accepted: tally.accepted, rejected: tally.rejected, rejectReasons: tally.reasons,
      evidence: evidence)
    report.typeFiltered = tally.typeFiltered
    report.acceptedNumbers = tally.acceptedNumbers
    report.rejectedNumbers = tally.rejectedNumbers
    return report
  }

  /// Reads a line-by-line blocking or allow source: this thread cuts the
  /// file into pieces of whole lines, one worker per core parses and
  /// normalizes them, and the results fold back in file order.
  private func readInPieces(
    _ reader: any _LineIndependentReader, region: RegionMetadata?, maxRangeSize: Int64, check: NumberCheck?,
    into lists: inout CollectedLists, tally: inout SourceTally
  ) throws -> SourceSummary {
    let format = type(of: reader)
    let normalizer = self.normalizer
    let cells = reader._cells
    let pipeline = OrderedPipeline(
      window: 3 * Parallel.coreCount, makeJob: { LineChunkJob() },
      work: {
        $0.run(
          format: format, normalizer: normalizer, region: region, maxRangeSize: maxRangeSize, check: check, cells: cells)
      })
    var summary = SourceSummary()
    var checksum = CRC32C().value
    var stretchBytes = 0
    func fold(_ job: LineChunkJob) throws(CompileError) {
      if let error = job.readError { throw .source(error) }
      if let contents = job.stretchContents {
        checksum = CRC32C.combine(checksum, contents.checksum, secondLength: contents.byteCount)
        stretchBytes += contents.byteCount
      }
      for reject in job.rejects {
        try tally.reject(
          line: summary.physicalLines + reject.line, reason: reject.reason, text: reject.text, numbers: reject.numbers)
      }
      try lists.add(piece: job.numbers, order: job.order, laidOutByLength: job.laidOutByLength, repeats: job.repeats)
      try lists.add(ranges: job.ranges)
      tally.accept(lines: job.numbers.count + job.repeats + job.ranges.count, numbers: job.acceptedNumbers)
      tally.typeFiltered += job.dropped
      tally.national.add(job.national)
      summary.records += job.summary.records
      summary.ranges += job.summary.ranges
      summary.issues += job.summary.issues
      summary.physicalLines += job.summary.physicalLines
      summary.cells.add(job.summary.cells)
      job.reset()
    }
    if case .file(let path) = reader.input, let file = try _SharedFile.openRegular(path),
      let skip = try utf8TextStart(of: file)
    {
      // A regular UTF-8 file: each worker reads its own stretch.
      lists.reserve(file.size / 8)
      let stretch = max(1, reader._chunkSize) * 2
      var start = 0
      repeat {
        let end = start + stretch
        try pipeline.nextJob(fold: fold).load(
          _FileStretch(file: file, start: start, end: end, isLast: end >= file.size, skip: skip))
        pipeline.submit()
        start = end
        if let progress, file.size > 0 { progress("reading \(tally.path): \(min(100, start * 100 / file.size))%") }
      } while start < file.size
      try pipeline.finish(fold: fold)
      summary.bytes = stretchBytes
      summary.checksum = checksum
      return summary
    }
    let bytes = try _ByteInput(reader.input, chunkSize: reader._chunkSize)
    // A number line takes at least 8 bytes or so (`+` and 7 digits, LF):
    // room for that many, reserved now, is only touched as it fills.
    if let size = bytes.size { lists.reserve(size / 8) }
    let chunker = try _LineChunker(bytes)
    while let piece = try chunker.next() {
      try pipeline.nextJob(fold: fold).load(piece)
      pipeline.submit()
      if let progress, let size = bytes.size, size > 0 {
        progress("reading \(tally.path): \(min(100, bytes.bytesRead * 100 / size))%")
      }
    }
    try pipeline.finish(fold: fold)
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

  /// Reads any source: this thread reads records into batches while the
  /// other cores normalize the previous ones; results fold back in file order.
  /// A source with evidence rules gathers its reports first and gives the
  /// numbers the rules keep at the end.
  private func readInBatches(
    _ reader: any SourceReader, region: RegionMetadata?, maxRangeSize: Int64, check: NumberCheck?, cellKeys: CellKeys,
    into lists: inout CollectedLists, tally: inout SourceTally
  ) throws -> (SourceSummary, EvidenceCounts?) {
    let spec = tally.spec
    var evidence = spec.weighsEvidence ? EvidenceTally(files: lists.spill?.files) : nil
    let labels = spec.list == .identify ? labelSanitizer : nil
    let normalizer = self.normalizer
    let pipeline = OrderedPipeline(
      window: 2 * max(1, Parallel.coreCount - 1),
      makeJob: { RecordBatch(capacity: 1 << 15) },
      work: {
        $0.normalize(with: normalizer, region: region, labels: labels, check: check, cellKeys: cellKeys)
      })
    func fold(_ batch: RecordBatch) throws(CompileError) {
      defer { batch.reset() }
      try self.fold(
        batch, spec: spec, maxRangeSize: maxRangeSize, evidence: &evidence, into: &lists, tally: &tally)
    }
    let summary = try reader.read { event in
      let batch = try pipeline.nextJob(fold: fold)
      switch event {
      case .record(let record): batch.append(record)
      case .range(let item): batch.append(range: item.range.lower...item.range.upper, line: item.line, text: item.text ?? "")
      case .issue(let issue): batch.append(issue: issue)
      }
      if batch.isFull { pipeline.submit() }
    }
    if !(try pipeline.nextJob(fold: fold)).isEmpty { pipeline.submit() }
    try pipeline.finish(fold: fold)
    guard let evidence else { return (summary, nil) }
    let counts = try evidence.weigh(spec.evidence, asOf: asOf) { (number, label, line) throws(CompileError) in
      if spec.list == .identify {
        try lists.addIdentification(number: number, label: label ?? "", priority: spec.priority, line: line)
      } else {
        try lists.add(CollectionOfOne(number))
      }
    }
    lists.countSpilledRuns(evidence.runsWritten)
    return (summary, counts)
  }

  /// Folds one normalized batch of a source into the lists, in file order.
  private func fold(
    _ batch: RecordBatch, spec: SourceSpec, maxRangeSize: Int64, evidence: inout EvidenceTally?,
    into lists: inout CollectedLists, tally: inout SourceTally
  ) throws(CompileError) {
    tally.national.add(batch.national)
    if batch.isClean && spec.list != .identify && evidence == nil {
      // Every record normalized: take the numbers in one copy.
      try lists.add(batch.acceptedNumbers)
      tally.accept(lines: batch.recordCount, numbers: batch.recordCount)
      return
    }
    var outcomes = batch.outcomes.makeIterator()
    for item in batch.items {
      switch item {
      case .record(let slice):
        guard let outcome = outcomes.next() else { continue }
        try fold(
          outcome, of: slice, in: batch, spec: spec, maxRangeSize: maxRangeSize, evidence: &evidence, into: &lists,
          tally: &tally)
      case .range(let range, let line, let text):
        guard spec.list != .identify else {
          try tally.reject(line: line, reason: "a range cannot carry a label", text: text)
          continue
        }
        if let bounds = NumberRange(lower: range.lowerBound, upper: range.upperBound),
          let reason = RecordAcceptance.rangeRejection(bounds, maxRangeSize: maxRangeSize, plan: normalizer.plan)
        {
          try tally.reject(line: line, reason: reason, text: text)
          continue
        }
        try lists.add(ranges: CollectionOfOne(range))
        tally.accept(range: range)
      case .issue(let line, let reason, let text):
        try tally.reject(line: line, reason: reason, text: text)
      }
    }
  }

  /// Folds what one record normalized to: a number (held for the evidence
  /// rules when the source has them), a range, a reject, or a number of
  /// another type than the source keeps.
  private func fold(
    _ outcome: RecordBatch.Outcome, of slice: RecordBatch.Slice, in batch: RecordBatch, spec: SourceSpec,
    maxRangeSize: Int64, evidence: inout EvidenceTally?, into lists: inout CollectedLists, tally: inout SourceTally
  ) throws(CompileError) {
    let line = slice.line
    switch outcome {
    case .range(let bounds):
      guard spec.list != .identify else {
        try tally.reject(line: line, reason: "a range cannot carry a label", text: batch.reportedText(slice))
        return
      }
      if let reason = RecordAcceptance.rangeRejection(bounds, maxRangeSize: maxRangeSize, plan: normalizer.plan) {
        try tally.reject(line: line, reason: reason, text: batch.reportedText(slice))
        return
      }
      try lists.add(ranges: CollectionOfOne(bounds.lower...bounds.upper))
      tally.accept(range: bounds.lower...bounds.upper)
    case .number(let number, let label):
      if evidence != nil {
        evidence?.add(number: number, label: label, line: line, day: slice.day)
        if let tally = evidence { try lists.spillIfNeeded(besides: tally.buffered, spilling: tally.spill) }
      } else if spec.list == .identify {
        try lists.addIdentification(number: number, label: label ?? "", priority: spec.priority, line: line)
      } else {
        try lists.add(CollectionOfOne(number))
      }
      tally.accept(lines: 1, numbers: 1)
    case .rejected(let reason, let text, let numbers):
      try tally.reject(line: line, reason: reason, text: text, numbers: numbers)
    case .dropped:
      tally.typeFiltered += 1
    }
  }

  /// The region a source's national numbers are read in, nil for ZZ.
  private func region(for spec: SourceSpec) throws(CompileError) -> RegionMetadata? {
    for (value, code) in (spec.options[value: "regions"]?.stringsByKey ?? [:]).sorted(by: { $0.key < $1.key })
    where code != "ZZ" && normalizer.plan.region(code) == nil {
      throw .unknownRegion(
        keyPath: "\(spec.keyPath).regions.\(value)", region: code,
        suggestion: normalizer.plan.suggestedRegionCode(for: code))
    }
    guard spec.region != "ZZ" else { return nil }
    guard let region = normalizer.plan.region(spec.region) else {
      // `defaultRegion` when the source took the config's.
      throw .unknownRegion(
        keyPath: spec.regionKeyPath, region: spec.region,
        suggestion: normalizer.plan.suggestedRegionCode(for: spec.region))
    }
    return region
  }
}
