import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation
import Testing

/// Random version histories: deltas applied one after another leave the
/// device exactly where a full load of the last version does.
@Suite struct PropertyTests {
  static let labels = ["Spam", "🚫 démarchage", "Bank", "", "e\u{301}", "é", "Telemarketing"]
  static let universe: Int64 = 3_000

  /// A random first version over a small universe, so later versions overlap it.
  static func randomSnapshot(_ random: inout SplitMix64) -> Snapshot {
    let base: Int64 = 33_612_000_000
    var blocking: [Int64] = []
    var identification: [CallDirectoryFormat.IdentificationEntry] = []
    let density = Int64.random(in: 2...20, using: &random)
    for offset in 0..<universe {
      if Int64.random(in: 0..<density, using: &random) == 0 { blocking.append(base + offset) }
      if Int64.random(in: 0..<(density * 2), using: &random) == 0 {
        identification.append(.init(number: base + offset, label: labels.randomElement(using: &random) ?? ""))
      }
    }
    return Snapshot(version: 1, blocking: blocking, identification: identification)
  }

  /// The next version: random removes, adds and relabels.
  static func mutate(_ snapshot: Snapshot, _ random: inout SplitMix64) -> Snapshot {
    let base: Int64 = 33_612_000_000
    var blocking = Set(snapshot.blocking)
    var labelsByNumber = Dictionary(uniqueKeysWithValues: snapshot.identification.map { ($0.number, $0.label) })
    for _ in 0..<Int.random(in: 0...60, using: &random) {
      let number = base + Int64.random(in: 0..<universe, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0: blocking.remove(number)
      case 1: blocking.insert(number)
      case 2: labelsByNumber[number] = nil
      case 3: labelsByNumber[number] = labels.randomElement(using: &random)
      default:
        if let existing = labelsByNumber.keys.randomElement(using: &random) {
          labelsByNumber[existing] = labels.randomElement(using: &random)  // relabel
        }
      }
    }
    return Snapshot(
      version: snapshot.version + 1,
      blocking: blocking.sorted(),
      identification: labelsByNumber.keys.sorted().map { .init(number: $0, label: labelsByNumber[$0] ?? "") })
  }

  static let seeds: [UInt64] = (0..<30).map { 0xCA11_D1E0 + $0 }

  @Test(arguments: seeds)
  func deltaChainEqualsTheFullSnapshot(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var versions = [Self.randomSnapshot(&random)]
    for _ in 1..<Int.random(in: 2...6, using: &random) {
      versions.append(Self.mutate(versions[versions.count - 1], &random))
    }
    guard let last = versions.last else { return }

    // full(v1), then v1→v2, …, v(n-1)→vn, one request each.
    let chain = try Harness()
    var report = try chain.load([("v1.cdir", try versions[0].encoded())])
    #expect(report.error == nil)
    for index in 1..<versions.count {
      let delta = try SnapshotDelta(from: versions[index - 1], to: versions[index])
      report = try chain.load([("delta.cdir", try delta.encoded())])
      #expect(report.error == nil, "seed \(seed) step \(index): \(String(describing: report.error))")
      #expect(report.wasIncremental)
      #expect(try chain.held() == versions[index].entries, "seed \(seed) step \(index)")
    }
    #expect(try chain.state() == ProviderState(loaded: try last.identity()))

    // full(vn) over a random earlier state.
    let direct = try Harness()
    let earlier = versions[Int.random(in: 0..<versions.count, using: &random)]
    #expect(try direct.load([("earlier.cdir", try earlier.encoded())]).error == nil)
    report = try direct.load([("last.cdir", try last.encoded())])
    #expect(report.error == nil)
    #expect(try direct.held() == chain.held())
    #expect(try direct.state() == chain.state())

    // Everything available at once: the planner reaches vn in one request.
    let mixed = try Harness()
    #expect(try mixed.load([("v1.cdir", try versions[0].encoded())]).error == nil)
    var all: [(String, [UInt8])] = [("v1.cdir", try versions[0].encoded())]
    for index in 1..<versions.count {
      all.append(("d\(index).cdir", try SnapshotDelta(from: versions[index - 1], to: versions[index]).encoded()))
    }
    all.append(("last.cdir", try last.encoded()))
    #expect(try mixed.load(all).error == nil)
    #expect(try mixed.held() == last.entries)
  }
}
