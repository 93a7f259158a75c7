import CallDirectorySync
import FormatFixtures
import Testing

/// ``SyncPlanner/step(for:version:held:fullOnly:)``, now an adapter over
/// `CallDirectoryFormat`'s `SnapshotPlanner`, chooses what the planner it
/// replaced chose (``PreviousSyncPlanner``) on random extensions: digests
/// known or not, deltas from any version (the one of the manifest too),
/// with and without counts, held snapshots of any version, full-only or not.
@Suite struct SyncPlannerAgreementTests {
  static let digests: [String?] = [nil, String(repeating: "a", count: 64), String(repeating: "b", count: 64)]

  static func file(_ name: String) -> Manifest.File {
    Manifest.File(path: name, bytes: 100, sha256: String(repeating: "0", count: 64))
  }

  static func randomItem(version: Int, _ random: inout SplitMix64) -> Manifest.Extension {
    let deltas = (0..<Int.random(in: 0...3, using: &random)).map { position in
      let counted = Bool.random(using: &random)
      return Manifest.Delta(
        from: Int.random(in: 1...7, using: &random), file: file("deltas/\(position).cdir"),
        adds: counted ? Int.random(in: 0...20, using: &random) : nil,
        removes: counted ? Int.random(in: 0...20, using: &random) : nil)
    }
    return Manifest.Extension(
      index: 1, lower: 1, upper: 999,
      counts: Manifest.Counts(
        blocking: Int.random(in: 0...15, using: &random), identification: Int.random(in: 0...15, using: &random)),
      digest: digests.randomElement(using: &random) ?? nil, full: file("full.cdir"), deltas: deltas)
  }

  @Test(arguments: (0..<8).map { 0x5F11_0000 + UInt64($0) })
  func theAdapterAgreesWithThePreviousPlanner(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var seen: Set<String> = []
    for _ in 0..<2_500 {
      let version = Int.random(in: 1...6, using: &random)
      let item = Self.randomItem(version: version, &random)
      let held =
        Int.random(in: 0..<8, using: &random) == 0
        ? nil
        : HeldSnapshot(
          version: Int.random(in: 0...7, using: &random),
          digest: (Self.digests + [String(repeating: "c", count: 64)]).randomElement(using: &random) ?? nil)
      let fullOnly = Int.random(in: 0..<4, using: &random) == 0
      let now = SyncPlanner.step(for: item, version: version, held: held, fullOnly: fullOnly)
      let before = PreviousSyncPlanner.step(for: item, version: version, held: held, fullOnly: fullOnly)
      #expect(now == before, "version \(version), held \(String(describing: held)), fullOnly \(fullOnly): \(item)")
      if now != before { return }
      let kind =
        switch now {
        case .upToDate: "upToDate"
        case .unchanged: "unchanged"
        case .delta: "delta"
        case .full: "full"
        }
      seen.insert(kind)
    }
    // The random inputs reach every step.
    #expect(seen == ["upToDate", "unchanged", "delta", "full"])
  }
}
