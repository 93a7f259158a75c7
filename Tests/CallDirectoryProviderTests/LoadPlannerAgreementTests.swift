import CallDirectoryFormat
import CallDirectoryProvider
import CalldirSystem
import Testing

/// ``LoadPlanner``, now an adapter over `CallDirectoryFormat`'s
/// `SnapshotPlanner`, plans what the planner it replaced planned
/// (``PreviousLoadPlanner``), refusals and their messages included, on
/// random blobs: full snapshots and deltas of a few versions and digests
/// (deltas going backwards too), any provider state, complete and
/// incremental requests, downgrades allowed or not, unreadable blobs.
@Suite struct LoadPlannerAgreementTests {
  /// A header of each kind, read from real blobs; the random candidates
  /// change their versions and digests.
  static func templates() throws -> (full: BlobHeader, delta: BlobHeader) {
    let v1 = sampleSnapshot(version: 1, count: 20)
    var v2 = v1
    v2.version = 2
    v2.blocking.removeFirst()
    return (
      try BlobReader.readHeader(bytes: try v1.encoded()),
      try BlobReader.readHeader(bytes: try SnapshotDelta(from: v1, to: v2).encoded())
    )
  }

  static let digests: [ContentDigest] = (1...3).compactMap { ContentDigest(bytes: [UInt8](repeating: $0, count: 32)) }

  static func randomIdentity(_ random: inout SplitMix64) -> SnapshotIdentity {
    SnapshotIdentity(
      version: UInt64.random(in: 1...5, using: &random), digest: digests.randomElement(using: &random) ?? .empty)
  }

  static func randomCandidates(
    _ templates: (full: BlobHeader, delta: BlobHeader), _ random: inout SplitMix64
  ) -> [BlobCandidate] {
    (0..<Int.random(in: 0...4, using: &random)).map { position in
      var header = Bool.random(using: &random) ? templates.full : templates.delta
      let target = randomIdentity(&random)
      header.version = target.version
      header.contentDigest = target.digest
      if header.kind == .delta {
        let base = randomIdentity(&random)
        header.baseVersion = base.version
        header.baseDigest = base.digest
      }
      return BlobCandidate(path: "blobs/\(position).cdir", header: header)
    }
  }

  static func randomState(_ random: inout SplitMix64) -> ProviderState {
    ProviderState(
      loaded: Int.random(in: 0..<5, using: &random) == 0 ? nil : randomIdentity(&random),
      pending: Int.random(in: 0..<6, using: &random) == 0 ? randomIdentity(&random) : nil)
  }

  static func randomSkipped(_ random: inout SplitMix64) -> [CallDirectoryProviderError] {
    switch Int.random(in: 0..<12, using: &random) {
    case 0: [.unreadableBlob(path: "blobs/bad.cdir", .badMagic)]
    case 1: [.blobReadFailed(path: "blobs/io.cdir", .io(FileError(operation: "read", path: "blobs/io.cdir", errno: Errno(rawValue: 5))))]
    default: []
    }
  }

  typealias Outcome = Result<LoadPlan, CallDirectoryProviderError>

  @Test(arguments: (0..<8).map { 0x10AD_0000 + UInt64($0) })
  func theAdapterAgreesWithThePreviousPlanner(seed: UInt64) throws {
    let templates = try Self.templates()
    var random = SplitMix64(seed: seed)
    var seen: Set<String> = []
    for _ in 0..<2_500 {
      let candidates = Self.randomCandidates(templates, &random)
      let state = Self.randomState(&random)
      let skipped = Self.randomSkipped(&random)
      let isIncremental = Int.random(in: 0..<4, using: &random) != 0
      let allowsDowngrade = Int.random(in: 0..<4, using: &random) == 0
      let now = Outcome { () throws(CallDirectoryProviderError) in
        try LoadPlanner.plan(
          isIncremental: isIncremental, state: state, candidates: candidates, skipped: skipped,
          allowsDowngrade: allowsDowngrade)
      }
      let before = Outcome { () throws(CallDirectoryProviderError) in
        try PreviousLoadPlanner.plan(
          isIncremental: isIncremental, state: state, candidates: candidates, skipped: skipped,
          allowsDowngrade: allowsDowngrade)
      }
      #expect(
        now == before,
        "incremental \(isIncremental), \(state), \(candidates.map(\.summary)), downgrade \(allowsDowngrade)")
      if now != before { return }
      seen.insert(Self.kind(of: now))
    }
    // The random inputs reach every strategy and every refusal.
    #expect(seen == Set(LoadStrategy.allCases.map(\.rawValue) + ["noUsableBlob", "downgrade", "blobReadFailed"]))
  }

  static func kind(of outcome: Outcome) -> String {
    switch outcome {
    case .success(let plan): plan.strategy.rawValue
    case .failure(.noUsableBlob): "noUsableBlob"
    case .failure(.downgrade): "downgrade"
    case .failure(.blobReadFailed): "blobReadFailed"
    case .failure(let error): "\(error)"
    }
  }
}
