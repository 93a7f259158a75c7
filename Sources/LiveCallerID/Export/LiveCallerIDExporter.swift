import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectoryFormat
import CalldirSystem
import Sodium

/// `calldir export live-caller-id`: turns a published version into the
/// inputs of Apple's `PIRProcessDatabase` for a Live Caller ID Lookup
/// extension's two use cases, block and identity (``ExportLayout``).
///
/// Everything comes from the store: the version's snapshot, the
/// `liveCallerID` settings and identity details its build recorded, the
/// icons it kept. Under the store's lock:
/// 1. The version's blob and identity details are checked against the
///    catalog; a use case with more numbers than `maxEntries` is refused
///    before anything is written.
/// 2. One pass over the blob gives every number its keywords and each
///    keyword its shard (``KeywordSharding``), appending the rows to one
///    scratch file per shard: memory holds buffers, not the dataset.
/// 3. Each shard alone is read back, sorted, its shared national keywords
///    left out, padded when empty, encoded and hashed; a shard whose bytes
///    differ from the last export's (or every shard, the first time, with
///    `--all`, or when its use case is re-sized) is written.
/// 4. Every file is written under a temporary name and synced; then the
///    files take their names (`export.json` last), and one catalog
///    transaction records the export. A failure anywhere before leaves no
///    file of the export under its name and the catalog as it was; one
///    after the renames leaves the catalog's record as it was, so the next
///    export writes those shards again.
public struct LiveCallerIDExporter {
  public struct Options {
    /// The version to export; nil for the latest.
    public var version: Int?
    /// Write every shard, not only those whose rows changed.
    public var all: Bool
    /// Wait for another command's lock on the store instead of failing.
    public var wait: Bool
    /// Short notes on the work in progress.
    public var progress: ((String) -> Void)?

    public init(version: Int? = nil, all: Bool = false, wait: Bool = true, progress: ((String) -> Void)? = nil) {
      self.version = version
      self.all = all
      self.wait = wait
      self.progress = progress
    }
  }

  public let store: StoreLayout
  /// The output directory as the user named it.
  public let output: String
  public var options: Options
  /// How numbers are formatted nationally, for the `national` keyword
  /// form: libphonenumber's format by default; nil refuses a version that
  /// asks for the form.
  public var nationalFormatter: (any NationalDigitsFormatting)?

  public init(
    store: StoreLayout, output: String, options: Options = Options(),
    nationalFormatter: (any NationalDigitsFormatting)? = LibphonenumberNationalDigits()
  ) {
    self.store = store
    self.output = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
    self.options = options
    self.nationalFormatter = nationalFormatter
  }

  /// Runs the export.
  public func export() throws(LiveCallerIDExportError) -> LiveCallerIDExport {
    try checkOutputPlace()
    // A store without a catalog (or a damaged one) is the same error as
    // for every command that reads a store; only then is it locked and
    // opened for writing (the export records itself).
    _ = try storeCall { () throws(StoreError) in try Catalog.openForReading(store) }
    let lock = try storeCall { () throws(StoreError) in try StoreLock(path: store.lock, wait: options.wait) }
    defer { withExtendedLifetime(lock) {} }
    let catalog = try storeCall { () throws(StoreError) in try Catalog(path: store.catalog) }
    let record = try version(in: catalog)
    let settings = try recordedSettings(of: record)
    let blobPath = try storeCall { () throws(StoreError) in try store.checkedSnapshot(of: record) }
    guard let identities = try storeCall({ () throws(StoreError) in try store.checkedIdentities(of: record) }) else {
      throw .identities(path: store.root, problem: "version \(record.version) records no identity details")
    }
    if settings.keywordForms.contains(.national), nationalFormatter == nil { throw .nationalFormatUnavailable }
    let recorded = try storeCall { () throws(StoreError) in try catalog.liveCallerIDUseCases() }
    let last = try storeCall { () throws(StoreError) in try catalog.lastLiveCallerIDExport() }
    let plans = try plans(for: record, settings: settings, recorded: recorded)

    let root = try prepareOutput()
    let scratch = root + "/" + ExportLayout.scratchPrefix + "\(CurrentProcess.id)"
    defer { try? FileSystem.removeTree(scratch) }
    try makeScratchDirectory(scratch)
    let staged = StagedFiles(root: root)
    defer { staged.discardUncommitted() }

    let reader = try openBlob(blobPath)
    let spills = plans.map { plan in
      ScratchSpill(
        directory: scratch, useCase: plan.kind, shardCount: plan.shardCount,
        budgetShare: ScratchSpill.budget / plans.count)
    }
    try spill(reader: reader, path: blobPath, identities: identities, settings: settings, into: spills)

    let lastShards = Dictionary(
      (last?.shards ?? []).map { ("\($0.useCase)-\($0.shard)", $0) }, uniquingKeysWith: { first, _ in first })
    let values = ValueSource(reader: reader, blobPath: blobPath, identities: identities, settings: settings, store: store)
    let exportedAt = UTCTime.iso8601(UTCTime.now())
    var outcomes: [UseCaseOutcome] = []
    for (plan, spill) in zip(plans, spills) {
      outcomes.append(try exportUseCase(
        plan, spill: spill, settings: settings, values: values, last: last, lastShards: lastShards, staged: staged))
    }
    let reports = outcomes.map(\.report)
    try checkKeywordRows(of: reports, settings: settings)

    let export = try stageDocuments(reports, record: record, settings: settings, root: root, staged: staged)
    options.progress?("putting the files in place")
    try staged.commit()
    let sizing = zip(plans, outcomes).compactMap { plan, outcome in
      outcome.resized.map { sizing in
        LiveCallerIDUseCaseRecord(
          useCase: plan.kind.rawValue, shardCount: plan.shardCount, bucketCount: sizing.bucketCount,
          maxSerializedBucketSize: sizing.maxSerializedBucketSize, rlweParameters: settings.rlweParameters.name,
          sizedAt: exportedAt, sizedByExport: 0, reason: outcome.report.reason)
      }
    }
    _ = try storeCall { () throws(StoreError) in
      try catalog.recordLiveCallerIDExport(
        exportedAt: exportedAt, version: record.version, output: root, allShards: options.all,
        shards: outcomes.flatMap(\.shards), sizing: sizing)
    }
    return export
  }

  /// The `liveCallerID` settings the version's build recorded.
  private func recordedSettings(of record: SnapshotRecord) throws(LiveCallerIDExportError) -> LiveCallerIDSettings {
    guard let settingsText = record.liveCallerID else { throw .noSettings(version: record.version) }
    do {
      return try LiveCallerIDSettings(recorded: settingsText)
    } catch {
      throw .settings(version: record.version, error)
    }
  }

  /// The shard counts, chosen before a row is read; a use case with more
  /// numbers than maxEntries in the e164 form alone is refused now.
  private func plans(
    for record: SnapshotRecord, settings: LiveCallerIDSettings, recorded: [String: LiveCallerIDUseCaseRecord]
  ) throws(LiveCallerIDExportError) -> [UseCasePlan] {
    var plans: [UseCasePlan] = []
    for kind in UseCaseKind.allCases {
      let numbers = kind == .block ? record.blocking : record.identification
      if numbers > settings.maxEntries {
        throw .tooManyRows(
          useCase: name(kind, settings), rows: numbers * settings.keywordForms.count, maxEntries: settings.maxEntries,
          detail: "\(numbers) numbers, \(numbers) rows in the e164 form alone")
      }
      plans.append(UseCasePlan(kind: kind, numbers: numbers, settings: settings, recorded: recorded[kind.rawValue]))
    }
    return plans
  }

  /// A fresh, empty scratch directory.
  private func makeScratchDirectory(_ scratch: String) throws(LiveCallerIDExportError) {
    do {
      try FileSystem.removeTree(scratch)
      try FileSystem.createDirectory(scratch)
    } catch {
      throw .file(error)
    }
  }

  private func openBlob(_ path: String) throws(LiveCallerIDExportError) -> BlobReader {
    do {
      return try BlobReader(path: path)
    } catch {
      throw .blob(path: path, error)
    }
  }

  /// The exact count, now that shared national keywords are known.
  private func checkKeywordRows(
    of reports: [LiveCallerIDExport.UseCase], settings: LiveCallerIDSettings
  ) throws(LiveCallerIDExportError) {
    for report in reports where report.keywordRows > settings.maxEntries {
      throw .tooManyRows(
        useCase: report.name, rows: report.keywordRows, maxEntries: settings.maxEntries,
        detail: report.keywords.map { "\($0.count) \($0.form.rawValue)" }.joined(separator: ", "))
    }
  }

  /// Stages the service config, the commands and `export.json`.
  private func stageDocuments(
    _ reports: [LiveCallerIDExport.UseCase], record: SnapshotRecord, settings: LiveCallerIDSettings, root: String,
    staged: StagedFiles
  ) throws(LiveCallerIDExportError) -> LiveCallerIDExport {
    let service = ExportLayout.fileBytes(
      ExportLayout.serviceConfig(reports.map { ($0.kind, $0.name, $0.shardCount) }))
    let serviceFile = try staged.stage(ExportLayout.serviceConfig, bytes: service)
    let commands = reports.flatMap(\.commands)
    _ = try staged.stage(ExportLayout.commands, bytes: Array(commands.map { $0 + "\n" }.joined().utf8))
    let export = LiveCallerIDExport(
      dataset: record.dataset, version: record.version, keywordForms: settings.keywordForms, useCases: reports,
      serviceConfig: serviceFile, output: root)
    _ = try staged.stage(ExportLayout.document, bytes: ExportLayout.fileBytes(export.document))
    return export
  }

  // MARK: - The store and the output

  private func version(in catalog: Catalog) throws(LiveCallerIDExportError) -> SnapshotRecord {
    let found = try storeCall { () throws(StoreError) -> SnapshotRecord? in
      if let version = options.version { return try catalog.snapshot(version: version) }
      return try catalog.latest()
    }
    guard let record = found else {
      throw .versionNotPublished(version: options.version ?? 1, store: store.root)
    }
    if let pruned = record.prunedAt { throw .versionPruned(version: record.version, at: pruned) }
    return record
  }

  /// Refuses an output inside the store, or one that is there and is not
  /// a directory (exit 73), before anything is read.
  private func checkOutputPlace() throws(LiveCallerIDExportError) {
    // The nearest part of the output's path that exists decides where it lies.
    var existing = output
    while !FileSystem.exists(existing), existing != "/", existing != "." {
      existing = FileSystem.directoryName(of: existing)
    }
    if FileSystem.isWithin(existing + "/.", directory: store.root) {
      throw .outputInsideStore(output: output, store: store.root)
    }
    if let status = try? FileSystem.statusIfPresent(output), status.kind != .directory {
      throw .cannotCreate(path: output, reason: "it exists and is not a directory (\(status.kind))")
    }
  }

  /// Makes the output directory and its subdirectories, and removes what
  /// an export that was killed left there; returns its absolute path.
  private func prepareOutput() throws(LiveCallerIDExportError) -> String {
    for directory in [output] + [ExportLayout.inputs, ExportLayout.configs, ExportLayout.processed].map({
      output + "/" + $0
    }) {
      do {
        try FileSystem.createDirectory(directory)
      } catch {
        throw .cannotCreate(path: directory, reason: error.detail ?? error.errno.description)
      }
    }
    let root = output.hasPrefix("/") ? output : CurrentProcess.workingDirectory + "/" + output
    for directory in [output, output + "/" + ExportLayout.inputs, output + "/" + ExportLayout.configs] {
      AtomicFile.removeAbandonedTemporaries(inDirectory: directory)
    }
    for name in (try? FileSystem.contentsOfDirectory(output)) ?? [] where name.hasPrefix(ExportLayout.scratchPrefix) {
      if AtomicFile.isGone(writerOf: Substring(name.dropFirst(ExportLayout.scratchPrefix.count) + "-0")) {
        try? FileSystem.removeTree(output + "/" + name)
      }
    }
    return root
  }

  private func storeCall<T>(_ body: () throws(StoreError) -> T) throws(LiveCallerIDExportError) -> T {
    do {
      return try body()
    } catch {
      throw .store(error)
    }
  }

  private func name(_ kind: UseCaseKind, _ settings: LiveCallerIDSettings) -> String {
    "\(settings.useCase).\(kind.rawValue)"
  }

  // MARK: - Pass 1: rows into their shards

  /// Gives every blocking and identified number its keywords and appends
  /// each row to its shard's scratch file.
  private func spill(
    reader: BlobReader, path: String, identities: IdentityDetails, settings: LiveCallerIDSettings,
    into spills: [ScratchSpill]
  ) throws(LiveCallerIDExportError) {
    let national = settings.keywordForms.contains(.national) ? nationalFormatter : nil
    func rows(of number: Int64, label: UInt32, profile: UInt32, into spill: ScratchSpill) throws(LiveCallerIDExportError) {
      let shard = Keyword.withE164(number) { KeywordSharding.shard(of: $0, shardCount: spill.shardCount) }
      try spill.add(ScratchRow(number: number, form: .e164, label: label, profile: profile), shard: shard)
      if let national, let digits = national.nationalDigits(ofE164: number), !digits.isEmpty, digits.count < 256 {
        try spill.add(
          ScratchRow(number: number, form: .national, nationalDigits: digits, label: label, profile: profile),
          shard: KeywordSharding.shard(of: digits, shardCount: spill.shardCount))
      }
    }
    do {
      options.progress?("reading the blocking numbers")
      let numbers = try reader.blocking()
      var buffer = [Int64](repeating: 0, count: NumberIterator.chunkCapacity)
      while true {
        let count = try buffer.withUnsafeMutableBufferPointer { (chunk) throws(BlobError) in try numbers.next(into: chunk) }
        if count == 0 { break }
        for index in 0..<count { try rows(of: buffer[index], label: 0, profile: 0, into: spills[0]) }
      }
      options.progress?("reading the identification entries")
      let entries = try reader.identification()
      var runs = identities.runs.makeIterator()
      var run = runs.next()
      var left = run?.count ?? 0
      while let entry = try entries.next() {
        while left == 0, let next = runs.next() {
          run = next
          left = next.count
        }
        guard let current = run, left > 0 else {
          throw LiveCallerIDExportError.identities(
            path: path, problem: "its identity details cover fewer entries than the snapshot holds")
        }
        left -= 1
        try rows(of: entry.number, label: entry.labelID, profile: UInt32(current.profile), into: spills[1])
      }
    } catch let error as BlobError {
      throw .blob(path: path, error)
    } catch let error as LiveCallerIDExportError {
      throw error
    } catch {
      throw .internalError("\(error)")
    }
    for spill in spills { try spill.finish() }
  }

  // MARK: - Pass 2: each shard alone

  private struct UseCaseOutcome {
    var report: LiveCallerIDExport.UseCase
    var shards: [LiveCallerIDShardRecord]
    /// The new sizing, when the use case was (re)sized.
    var resized: CuckooSizing?
  }

  private func exportUseCase(
    _ plan: UseCasePlan, spill: ScratchSpill, settings: LiveCallerIDSettings, values: ValueSource,
    last: (export: LiveCallerIDExportRecord, shards: [LiveCallerIDShardRecord])?,
    lastShards: [String: LiveCallerIDShardRecord], staged: StagedFiles
  ) throws(LiveCallerIDExportError) -> UseCaseOutcome {
    let kind = plan.kind
    // Every shard is written the first time, with --all, or when the
    // shard count changed; otherwise a shard is written when its rows
    // (or, below, its config) changed.
    let job = UseCaseJob(
      plan: plan, spill: spill, settings: settings,
      value: kind == .block ? { _ in [0x01] } : { row throws(LiveCallerIDExportError) in try values.identity(row) },
      paddingValue: kind.paddingValue(cacheExpiryMinutes: settings.cacheExpiryMinutes),
      writeAll: options.all || last == nil || plan.resizeReason != nil, lastShards: lastShards, staged: staged,
      progress: options.progress)
    var encoded = try job.encodeShards()
    let (sizing, reason) = job.sizing(for: encoded.loads)
    let resized = reason != nil
    let shards = try job.stageShards(&encoded, sizing: sizing, resized: resized)
    let why = whyWritten(resizedBecause: reason, last: last, written: shards.written, configChanged: shards.configChanged)
    let report = LiveCallerIDExport.UseCase(
      kind: kind, name: name(kind, settings), shardCount: plan.shardCount,
      keywords: settings.keywordForms.map { ($0, $0 == .e164 ? encoded.e164Rows : encoded.nationalRows) },
      sharedNational: encoded.sharedNational, paddingRows: encoded.paddingRows, written: shards.written, reason: why,
      sizing: sizing, resized: resized, settings: settings, files: shards.files,
      commands: shards.written.map { ExportLayout.command(kind, shard: $0) },
      estimate: ProcessingEstimate(shards: plan.shardCount, sizing: sizing, settings: settings),
      writtenEstimate: ProcessingEstimate(shards: shards.written.count, sizing: sizing, settings: settings))
    return UseCaseOutcome(report: report, shards: shards.records, resized: resized ? sizing : nil)
  }

  /// Why a use case's shards were written (or not), for its report;
  /// `reason` is why it was (re)sized, nil when it kept its sizing.
  private func whyWritten(
    resizedBecause reason: String?, last: (export: LiveCallerIDExportRecord, shards: [LiveCallerIDShardRecord])?,
    written: [Int], configChanged: Bool
  ) -> String {
    if options.all {
      return "--all: every shard written" + (reason.map { "; \($0)" } ?? "")
    } else if let reason {
      return last == nil ? "first export of this store: every shard written; \(reason)" : "\(reason); every shard written"
    } else if let last {
      let since = "since export \(last.export.id) (version \(last.export.version))"
      return written.isEmpty
        ? "no shard's rows or parameters changed \(since)"
        : configChanged ? "rows or parameters changed \(since)" : "rows changed \(since)"
    } else {
      return "first export of this store: every shard written"
    }
  }

  static func hex(_ digest: [UInt8]) -> String { ContentDigest(bytes: digest)?.hex ?? "" }
}

/// What the export plans for a use case before reading a row.
struct UseCasePlan {
  let kind: UseCaseKind
  let shardCount: Int
  /// The sizing the catalog recorded.
  let recorded: LiveCallerIDUseCaseRecord?
  /// Why the use case is sized again whatever its shards hold (its shard
  /// count or RLWE parameters changed), nil otherwise.
  let resizeReason: String?

  init(kind: UseCaseKind, numbers: Int, settings: LiveCallerIDSettings, recorded: LiveCallerIDUseCaseRecord?) {
    self.kind = kind
    self.recorded = recorded
    let configured = kind == .block ? settings.block.shardCount : settings.identity.shardCount
    let key = "liveCallerID.\(kind.rawValue).shardCount"
    if let recorded {
      shardCount = configured ?? recorded.shardCount
      if shardCount != recorded.shardCount {
        resizeReason = "\(key) changed from \(recorded.shardCount) to \(shardCount)"
      } else if recorded.rlweParameters != settings.rlweParameters.name {
        resizeReason = "liveCallerID.rlweParameters changed from \(recorded.rlweParameters) to \(settings.rlweParameters.name)"
      } else {
        resizeReason = nil
      }
    } else {
      let rows = numbers * settings.keywordForms.count
      shardCount = configured ?? kind.shardCount(forRows: rows)
      resizeReason =
        configured == nil
        ? "sized at the first export: \(shardCount) shards for \(rows) rows (about \(kind.rowsPerShard) a shard)"
        : "sized at the first export: \(shardCount) shards (\(key))"
    }
  }
}

/// The values of identity rows: `CallIdentity` of the entry's label, its
/// profile's category and icon (read from the store once each), and the
/// settings' expiry.
final class ValueSource {
  let reader: BlobReader
  let blobPath: String
  let identities: IdentityDetails
  let settings: LiveCallerIDSettings
  let store: StoreLayout
  private var icons: [[UInt8]: [UInt8]] = [:]

  init(reader: BlobReader, blobPath: String, identities: IdentityDetails, settings: LiveCallerIDSettings, store: StoreLayout) {
    self.reader = reader
    self.blobPath = blobPath
    self.identities = identities
    self.settings = settings
    self.store = store
  }

  /// The serialized `CallIdentity` of `row`.
  /// - Throws: ``LiveCallerIDExportError/valueTooLarge(number:bytes:limit:)``
  ///   when it would not fit a PIR bucket's value.
  func identity(_ row: ScratchRow) throws(LiveCallerIDExportError) -> [UInt8] {
    let name: String
    do {
      name = try reader.label(row.label)
    } catch {
      throw .blob(path: blobPath, error)
    }
    let profile = identities.profiles[Int(row.profile)]
    var icon: CallIdentity.Icon?
    if let sha = profile.icon {
      if icons[sha] == nil {
        do {
          icons[sha] = try IdentityIcon.stored(sha256: sha, in: store).bytes
        } catch {
          throw .store(error)
        }
      }
      icon = CallIdentity.Icon(image: icons[sha] ?? [])
    }
    let value = CallIdentity(
      name: name, icon: icon, cacheExpiryMinutes: settings.cacheExpiryMinutes,
      category: UInt32(profile.category.rawValue)
    ).encoded()
    guard value.count < CuckooSizing.maxValueSize else {
      throw .valueTooLarge(number: row.number, bytes: value.count, limit: CuckooSizing.maxValueSize - 1)
    }
    return value
  }
}
