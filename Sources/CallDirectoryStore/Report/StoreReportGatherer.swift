import CallDirectoryFormat
import CalldirSystem
import PhoneNumbers

/// Gathers a ``StoreReport`` from a store: every version and refusal from
/// the catalog, and the latest version's sources, rejects by reason,
/// shards and composition by calling code.
///
///     let report = try StoreReportGatherer(store: StoreLayout(root: "out/store")).gather()
///     let page = ReportPageRenderer().render(report)
///
/// The catalog is opened with ``Catalog/openForReading(_:)``, so nothing is
/// created in the store and a read-only store can be reported on.
public struct StoreReportGatherer {
  /// The store to report on.
  public let store: StoreLayout
  /// The numbering plan whose calling codes the composition counts.
  public let plan: NumberingPlan

  /// Creates a gatherer for `store`.
  public init(store: StoreLayout, plan: NumberingPlan = .standard) {
    self.store = store
    self.plan = plan
  }

  /// Reads the facts.
  ///
  /// - Returns: The report; its ``StoreReport/latest`` is nil when nothing
  ///   was published yet.
  /// - Throws: ``ReportError/store(_:)`` with `StoreError.noCatalog` when the
  ///   store has no catalog, or another `StoreError` when it cannot be read;
  ///   ``ReportError/blob(path:error:)`` when the latest snapshot is
  ///   missing, corrupt or truncated.
  /// - Complexity: One pass over the catalog's versions and one streaming
  ///   pass over the latest full snapshot, in constant memory.
  public func gather() throws(ReportError) -> StoreReport {
    let snapshots: [SnapshotRecord]
    let refusals: [RefusalRecord]
    var latest: StoreReport.Latest?
    do {
      let catalog = try Catalog.openForReading(store)
      snapshots = try catalog.allSnapshots()
      refusals = try catalog.refusals()
      if let newest = snapshots.last { latest = try details(of: newest, in: catalog) }
    } catch let error as ReportError {
      throw error
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .store(.catalog("\(error)"))
    }
    return StoreReport(
      store: store.root,
      dataset: snapshots.last?.dataset ?? "",
      versions: snapshots.map { snapshot in
        StoreReport.Version(
          version: snapshot.version, createdAt: snapshot.createdAt, blocking: snapshot.blocking,
          identification: snapshot.identification, labels: snapshot.labels, rejected: snapshot.rejected,
          bytes: snapshot.bytes, forced: snapshot.forced, changes: snapshot.changes)
      },
      refusals: refusals.map { refusal in
        StoreReport.Refusal(
          attemptedAt: refusal.attemptedAt, version: refusal.version, kind: refusal.kind,
          message: refusal.message, source: refusal.source)
      },
      latest: latest)
  }

  /// The latest version's sources, extensions and composition.
  private func details(of snapshot: SnapshotRecord, in catalog: Catalog) throws -> StoreReport.Latest {
    let reasons = try catalog.rejectReasons(ofVersion: snapshot.version)
    let sources = try catalog.sources(ofVersion: snapshot.version).map { source in
      StoreReport.Source(
        position: source.position, path: source.writtenPath, list: source.list, format: source.format,
        region: source.region, dataLines: source.dataLines, accepted: source.accepted, rejected: source.rejected,
        contribution: source.contribution, isMissing: source.isAbsent,
        rejectReasons: (reasons[source.position] ?? [:])
          .map { StoreReport.RejectReason(reason: $0.key, count: $0.value) }
          .sorted { ($0.count, $1.reason) > ($1.count, $0.reason) })
    }
    let shards = try catalog.shards(ofVersion: snapshot.version)
    let extensions =
      shards.isEmpty
      ? [
        StoreReport.ExtensionFill(
          shard: nil, lowerBound: nil, upperBound: nil,
          counts: StoreReport.EntryCounts(blocking: snapshot.blocking, identification: snapshot.identification))
      ]
      : shards.map { shard in
        StoreReport.ExtensionFill(
          shard: shard.shard, lowerBound: shard.lowerBound, upperBound: shard.upperBound,
          counts: StoreReport.EntryCounts(blocking: shard.blocking, identification: shard.identification))
      }
    let composition = try composition(ofBlob: store.path(snapshot.path))
    return StoreReport.Latest(
      version: snapshot.version, createdAt: snapshot.createdAt, callingCodes: composition.callingCodes,
      noCallingCode: composition.none, sources: sources, extensions: extensions)
  }

  /// Walks a full snapshot once and counts its entries per calling code.
  private func composition(
    ofBlob path: String
  ) throws(ReportError) -> (callingCodes: [StoreReport.CallingCodeCount], none: StoreReport.EntryCounts) {
    var blocking = CallingCodeTally(plan: plan)
    var identification = CallingCodeTally(plan: plan)
    do {
      let reader = try BlobReader(path: path)
      try blocking.count(reader.blocking())
      try identification.count(reader.numbers(.identification))
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch {
      throw .store(.file(FileError(operation: "read", path: path, errno: .ioError, detail: "\(error)")))
    }
    let callingCodes = (1..<1000).compactMap { code -> StoreReport.CallingCodeCount? in
      let counts = StoreReport.EntryCounts(
        blocking: blocking.counts[code], identification: identification.counts[code])
      guard counts.total > 0 else { return nil }
      return StoreReport.CallingCodeCount(
        callingCode: code, region: plan.mainRegion(forCallingCode: code)?.regionCode ?? "001", counts: counts)
    }
    return (
      callingCodes.sorted { ($0.counts.total, $1.callingCode) > ($1.counts.total, $0.callingCode) },
      StoreReport.EntryCounts(blocking: blocking.counts[0], identification: identification.counts[0])
    )
  }
}
