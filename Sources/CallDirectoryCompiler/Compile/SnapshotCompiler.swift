import Dispatch
import Foundation
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

  /// Compiles `config`, writing rejected lines to `rejects`.
  func compile(_ config: BuildConfig, rejects: RejectLog) throws(CompileError) -> CompiledSnapshot {
    var blockSingles: [Int64] = []
    var blockRanges: [ClosedRange<Int64>] = []
    var allowSingles: [Int64] = []
    var allowRanges: [ClosedRange<Int64>] = []
    var identification = IdentificationResolver()
    var reports: [SourceReport] = []
    var statistics = CompileStatistics()
    let clock = ContinuousClock()
    let started = clock.now

    // Two sets of batches, one per core each: while one set is normalized on
    // the worker threads, this thread reads the next records into the other.
    let workers = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount - 1))
    let sets = (0..<2).map { _ in (0..<workers).map { _ in RecordBatch(capacity: 1 << 15) } }
    for spec in config.sources {
      let region = try self.region(for: spec)
      let reader: any SourceReader
      do {
        reader = try registry.makeReader(for: spec)
      } catch {
        throw .config(error)
      }
      let path = Self.displayPath(spec.path)
      progress?("reading \(path)")
      var accepted = 0
      var rejected = 0
      let labels = spec.list == .identify ? labelSanitizer : nil

      // Folds a normalized set's results in file order, so the outcome is
      // the same as one pass would give.
      func fold(_ batches: [RecordBatch]) throws(CompileError) {
        for batch in batches where !batch.isEmpty {
          if batch.isClean && spec.list != .identify {
            // Every record normalized: take the numbers in one copy.
            if spec.list == .block {
              blockSingles.append(contentsOf: batch.acceptedNumbers)
            } else {
              allowSingles.append(contentsOf: batch.acceptedNumbers)
            }
            accepted += batch.recordCount
            batch.reset()
            continue
          }
          var outcomes = batch.outcomes.makeIterator()
          for item in batch.items {
            switch item {
            case .record(let line, _, _, _, _):
              switch outcomes.next() {
              case .number(let number, let label)?:
                switch spec.list {
                case .block: blockSingles.append(number)
                case .allow: allowSingles.append(number)
                case .identify: identification.add(number: number, label: label ?? "", priority: spec.priority)
                }
                accepted += 1
              case .rejected(let reason)?:
                rejected += 1
                try rejects.add(path: path, line: line, reason: reason)
              case nil:
                break
              }
            case .range(let range, let line):
              switch spec.list {
              case .block: blockRanges.append(range)
              case .allow: allowRanges.append(range)
              case .identify:
                rejected += 1
                try rejects.add(path: path, line: line, reason: "a range cannot carry a label")
                continue
              }
              accepted += 1
            case .issue(let line, let reason):
              rejected += 1
              try rejects.add(path: path, line: line, reason: reason)
            }
          }
          batch.reset()
        }
      }

      var filling = 0
      var current = 0
      var inFlight: (set: Int, group: DispatchGroup)? = nil
      func finishInFlight() throws(CompileError) {
        guard let (set, group) = inFlight else { return }
        group.wait()
        inFlight = nil
        try fold(sets[set])
      }
      let normalizer = self.normalizer
      func launch(_ set: Int) {
        let group = DispatchGroup()
        for batch in sets[set] where !batch.isEmpty {
          DispatchQueue.global().async(group: group) {
            batch.normalize(with: normalizer, region: region, labels: labels)
          }
        }
        inFlight = (set, group)
      }
      let summary: SourceSummary
      do {
        defer { inFlight?.group.wait() }
        summary = try reader.read { event in
          let batch = sets[filling][current]
          switch event {
          case .record(let record): batch.append(record)
          case .range(let item): batch.append(range: item.range.lower...item.range.upper, line: item.line)
          case .issue(let issue): batch.append(issue: issue)
          }
          guard batch.isFull else { return }
          current += 1
          if current == workers {
            try finishInFlight()
            launch(filling)
            filling = 1 - filling
            current = 0
          }
        }
        try finishInFlight()
        launch(filling)
        try finishInFlight()
      } catch let error as SourceError {
        throw .source(error)
      } catch let error as CompileError {
        throw error
      } catch {
        throw .source(.readFailed(path: spec.path, reason: "\(error)"))
      }
      if summary.dataLines > 0 && Double(rejected) > config.maxRejectRatio * Double(summary.dataLines) {
        throw .tooManyRejects(path: path, rejected: rejected, dataLines: summary.dataLines, limit: config.maxRejectRatio)
      }
      statistics.rejected += rejected
      reports.append(SourceReport(spec: spec, summary: summary, accepted: accepted, rejected: rejected))
    }

    let readDuration = clock.now - started
    progress?("sorting")
    let blockCandidates = blockSingles.count
    // Hand the arrays over without a copy: they are sorted in place.
    var singles: [Int64] = []
    swap(&singles, &blockSingles)
    let listed = NumberSet(singles: consume singles, ranges: blockRanges)
    var allowed: [Int64] = []
    swap(&allowed, &allowSingles)
    let allow = NumberSet(singles: consume allowed, ranges: allowRanges)
    let (blocking, allowedCount) = listed.subtracting(allow)
    let resolution = identification.resolve()

    statistics.blocking = blocking.count
    statistics.identification = resolution.entries.count
    statistics.labels = resolution.labels.count
    statistics.conflicts = resolution.conflicts
    statistics.allowed = allowedCount
    // Repeated blocking numbers, and single numbers a listed range already covers.
    statistics.duplicates = resolution.duplicates + (blockCandidates - listed.singles.count)

    return CompiledSnapshot(
      blocking: blocking,
      identification: resolution.entries.map { LabeledNumber(number: $0.number, labelID: UInt32($0.label)) },
      labels: resolution.labels,
      statistics: statistics,
      sources: reports,
      readMilliseconds: readDuration.components.seconds * 1000
        + readDuration.components.attoseconds / 1_000_000_000_000_000
    )
  }

  /// The region a source's national numbers are read in, nil for ZZ.
  private func region(for spec: SourceSpec) throws(CompileError) -> RegionMetadata? {
    guard spec.region != "ZZ" else { return nil }
    guard let region = normalizer.plan.region(spec.region) else {
      throw .unknownRegion(keyPath: spec.keyPath, region: spec.region)
    }
    return region
  }

  /// A path as the user would type it: relative to the working directory when inside it.
  static func displayPath(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    let prefix = current.hasSuffix("/") ? current : current + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }
}
