import CallDirectoryCompiler
import CallDirectoryFormat
import CallDirectorySources
import CalldirSystem
import PhoneNumbers
import UnicodeText

/// Why a number is (or is not) blocked or labelled in a published version.
public struct NumberExplanation: Sendable, Hashable {
  /// The text as given.
  public var input: String
  /// The E.164 digits, nil when the input is not a number.
  public var number: Int64?
  /// Why the input is not a number.
  public var rejection: String?
  /// The version explained.
  public var version: Int
  /// Whether the version's blocking list holds the number.
  public var blocked = false
  /// The shard (extension) whose range holds the number, when the version is sharded.
  public var shard: Int?
  /// The version's identification label for the number.
  public var label: String?
  /// Every blocking and identification source line that gives the number.
  public var sources: [ProvenanceLine] = []
  /// Every allowlist line that removes it from the blocking list.
  public var allowedBy: [ProvenanceLine] = []
  /// Identification lines whose label lost to ``label`` (lines that did
  /// not count under their source's evidence rules never compete).
  public var lostLabels: [ProvenanceLine] = []
  /// For each source with evidence rules (`minReports`, `maxAgeDays`) that
  /// reports the number: how many of its reports counted, and whether
  /// that was enough.
  public var evidence: [EvidenceFinding] = []
}

/// Answers `calldir explain`: looks numbers up in a version's blob (a
/// binary search over its frames) and, unless told not to, reads the
/// version's sources again to find every line behind each number.
public struct NumberExplainer {
  public let store: StoreLayout
  public var normalizer = PhoneNumberNormalizer()
  public var registry = SourceFormatRegistry.standard
  public var labelSanitizer = LabelSanitizer()

  public init(store: StoreLayout) { self.store = store }

  /// The region national inputs (`212-555-0142`) are read in.
  public enum InputRegion: Sendable {
    /// This one (nil: none, `ZZ`), as `--region` names it.
    case given(RegionMetadata?)
    /// The `defaultRegion` the version was built with, as the build read
    /// national numbers of sources without a region of their own. A
    /// version that did not record it (built before catalog schema 5, or
    /// rebuilt by `calldir repair` from its blob) is read in the region
    /// all its sources share, else in none; ``Report/regionNote`` says so.
    case asBuilt
  }

  /// What the explanations of one run share.
  public struct Report: Sendable {
    /// The version explained.
    public var version: Int
    /// The region national inputs were read in (`ZZ`: none).
    public var region: String = "ZZ"
    /// Why ``region`` is not the version's recorded `defaultRegion` when
    /// the version recorded none; nil otherwise.
    public var regionNote: String?
    /// One explanation per input, in order.
    public var explanations: [NumberExplanation]
    /// Each source of the version and whether it could be read again as it
    /// was (empty without provenance).
    public var sources: [(path: String, state: SourceState)]
  }

  /// Explains `inputs` against `version` (the latest when nil), reading
  /// national numbers in `region`.
  /// - Throws: ``StoreError`` (no catalog, unknown version), ``BlobError``
  ///   when the version's blob cannot be read.
  public func explain(
    _ inputs: [String], version requested: Int?, region: RegionMetadata?, provenance: Bool = true
  ) throws -> Report {
    try explain(inputs, version: requested, inputRegion: .given(region), provenance: provenance)
  }

  /// Explains `inputs` against `version` (the latest when nil), reading
  /// national numbers as `inputRegion` says.
  /// - Throws: ``StoreError`` (no catalog, unknown version), ``BlobError``
  ///   when the version's blob cannot be read.
  public func explain(
    _ inputs: [String], version requested: Int?, inputRegion: InputRegion, provenance: Bool = true
  ) throws -> Report {
    let catalog = try Catalog.openForReading(store)
    guard let record = try requested.map({ try catalog.snapshot(version: $0) }) ?? catalog.latest() else {
      if let requested { throw StoreError.catalog("version \(requested) is not published in \(store.root)") }
      throw StoreError.catalog("no version is published in \(store.root)")
    }
    if let pruned = record.prunedAt {
      throw StoreError.catalog(
        "version \(record.version) was pruned at \(pruned): its snapshot is gone; 'calldir history' lists the versions kept")
    }
    let (region, regionNote) = try self.region(inputRegion, of: record, catalog: catalog)
    var explanations = inputs.map { input in
      var explanation = NumberExplanation(input: input, version: record.version)
      switch normalizer.normalize(input, region: region) {
      case .success(let number): explanation.number = number
      case .failure(let rejection): explanation.rejection = rejection.description
      }
      return explanation
    }
    let numbers = explanations.compactMap(\.number)

    let lookup = try BlobLookup(path: store.path(record.path))
    let blocked = try lookup.containsBlocking(numbers)
    let labels = try lookup.identificationLabels(for: numbers)
    let shards = try catalog.shards(ofVersion: record.version)
    var next = 0
    for index in explanations.indices {
      guard let number = explanations[index].number else { continue }
      explanations[index].blocked = blocked[next]
      explanations[index].label = labels[next]
      explanations[index].shard = shards.first { ($0.lowerBound...$0.upperBound).contains(number) }?.shard
      next += 1
    }

    let regionCode = region?.regionCode ?? "ZZ"
    guard provenance, !numbers.isEmpty else {
      return Report(
        version: record.version, region: regionCode, regionNote: regionNote, explanations: explanations, sources: [])
    }
    let scanner = ProvenanceScanner(
      normalizer: normalizer, registry: registry, labelSanitizer: labelSanitizer,
      maxRangeSize: record.maxRangeSize ?? BuildConfig.Defaults.maxRangeSize,
      asOf: record.asOf.flatMap(CalendarDay.init(iso8601:)))
    let sources = try catalog.sources(ofVersion: record.version)
    let (lines, states) = scanner.scan(sources, for: Set(numbers))
    // Sources whose reports are weighed: with evidence rules, or dated.
    let weighed = sources.filter { source in
      source.evidence.map { !$0.isDefault || source.options["dateColumn"] != nil } ?? false
    }
    for index in explanations.indices {
      guard let number = explanations[index].number else { continue }
      let found = lines[number] ?? []
      explanations[index].sources = found.filter { $0.list != .allow }
      explanations[index].allowedBy = found.filter { $0.list == .allow }
      explanations[index].lostLabels = found.filter {
        $0.list == .identify && $0.notCounted == nil && $0.label != explanations[index].label
      }
      for source in weighed {
        guard let rules = source.evidence, let list = SourceList(rawValue: source.list) else { continue }
        let reports = found.filter { $0.path == source.writtenPath && $0.list == list }
        guard !reports.isEmpty else { continue }
        // A row that gives the number twice (two number columns) is one report.
        let rows = Set(reports.map(\.line)).count
        let counted = Set(reports.filter { $0.notCounted == nil }.map(\.line)).count
        explanations[index].evidence.append(
          EvidenceFinding(path: source.writtenPath, list: list, reports: rows, counted: counted, rules: rules))
      }
    }
    return Report(
      version: record.version, region: regionCode, regionNote: regionNote, explanations: explanations, sources: states)
  }

  /// The region inputs are read in, and a note when the version did not
  /// record the one it was built with.
  private func region(
    _ choice: InputRegion, of record: SnapshotRecord, catalog: Catalog
  ) throws -> (RegionMetadata?, String?) {
    guard case .asBuilt = choice else {
      if case .given(let region) = choice { return (region, nil) }
      return (nil, nil)
    }
    if let code = record.defaultRegion {
      return (code == "ZZ" ? nil : normalizer.plan.region(code), nil)
    }
    let why = "version \(record.version) did not record the defaultRegion it was built with (built before "
      + "catalog schema 5, or rebuilt by calldir repair)"
    let regions = Set(try catalog.sources(ofVersion: record.version).map(\.region))
    if regions.count == 1, let code = regions.first, code != "ZZ", let region = normalizer.plan.region(code) {
      return (region, why + "; national numbers are read in \(code), the region of all its sources (--region to choose)")
    }
    let shown = regions.sorted().joined(separator: ", ")
    return (
      nil,
      why + "; national numbers are read in no region (ZZ)"
        + (regions.count > 1 ? ", as its sources have several (\(shown))" : "") + " (--region to choose)"
    )
  }
}
