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
  /// Whether line-by-line blocking and allow sources are read in pieces of
  /// lines (``LinePieces``); off, every source is read as events
  /// (``EventBatches``), which must give the same snapshot and rejects.
  var readsLinesInPieces = true

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
    progress?("reading \(spec.writtenPath)")
    let summary: SourceSummary
    var fold = SourceFold(
      tally: SourceTally(spec: spec, rejects: rejects),
      evidence: spec.weighsEvidence ? EvidenceTally(files: lists.spill?.files) : nil)
    var evidence: EvidenceCounts?
    do {
      summary = try read(
        producer(for: reader, spec: spec, region: region, maxRangeSize: config.maxRangeSize), fold: &fold,
        into: &lists)
      if let reports = fold.evidence { evidence = try weigh(reports, of: spec, into: &lists) }
    } catch let error as SourceError {
      throw .source(error.locating(source: spec.keyPath))
    } catch let error as CompileError {
      throw error
    } catch {
      throw .source(.file(FileError(operation: "read", path: spec.path, errno: .ioError, detail: "\(error)")))
    }
    let tally = fold.tally
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

  /// Reads a source through `producer`: its pieces filled on this thread,
  /// judged on the others, folded in file order.
  private func read<Producer: PieceProducer>(
    _ producer: Producer, fold: inout SourceFold, into lists: inout CollectedLists
  ) throws -> SourceSummary {
    let pipeline = OrderedPipeline(window: producer.window, makeJob: producer.makePiece, work: producer.work)
    func take(_ piece: Producer.Piece) throws(CompileError) { try fold.fold(piece, into: &lists) }
    func reserve(_ count: Int) { lists.reserve(count) }
    return try producer.produce(into: pipeline, fold: take, reserve: reserve, folded: { fold.summary })
  }

  /// Weighs the reports a source with evidence rules gathered, adding the
  /// numbers its rules keep to `lists`.
  private func weigh(
    _ reports: EvidenceTally, of spec: SourceSpec, into lists: inout CollectedLists
  ) throws(CompileError) -> EvidenceCounts {
    let counts = try reports.weigh(spec.evidence, asOf: asOf) { (number, label, line) throws(CompileError) in
      if spec.list == .identify {
        try lists.addIdentification(number: number, label: label ?? "", priority: spec.priority, line: line)
      } else {
        try lists.add(CollectionOfOne(number))
      }
    }
    lists.countSpilledRuns(reports.runsWritten)
    return counts
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
