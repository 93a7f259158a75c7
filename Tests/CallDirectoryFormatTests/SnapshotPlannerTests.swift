import CallDirectoryFormat
import Testing

/// ``SnapshotPlanner``'s rules as a table: what the extension holds, what
/// is on offer and the options, with the expected choice under a sync's
/// options (held content first, a newer snapshot of it not reloaded) and a
/// request's (a delta on the held snapshot first, a newer snapshot of the
/// held content loaded). The rows where the two differ are the reason the
/// options exist.
@Suite struct SnapshotPlannerTests {
  typealias Planner = SnapshotPlanner<Int, String>
  typealias Choice = Planner.Choice

  static let sync = Planner(.init(sameContentBeforeDeltas: true, newerSameContentNeedsNoReload: true))
  static let request = Planner(.init(sameContentBeforeDeltas: false, newerSameContentNeedsNoReload: false))

  /// One row: `held` and the offers, in the notation `4a` (version 4,
  /// digest a) and `4-` (version 4, digest unknown); a delta `4a>5b`.
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var held: String?
    var fulls: [String]
    var deltas: [String]
    var sync: Choice?
    var request: Choice?

    var testDescription: String { name }

    static func snapshot(_ text: Substring) -> Planner.Snapshot {
      let digest = text.last.map(String.init).flatMap { $0 == "-" ? nil : $0 }
      return Planner.Snapshot(version: Int(text.dropLast()) ?? -1, digest: digest)
    }

    func choose(with planner: Planner) -> Choice? {
      planner.choose(
        held: held.map { Self.snapshot(Substring($0)) }, fulls: fulls.map { Self.snapshot(Substring($0)) },
        deltas: deltas.map { text in
          let parts = text.split(separator: ">")
          return Planner.Delta(base: Self.snapshot(parts[0]), target: Self.snapshot(parts[1]))
        })
    }
  }

  static let rows: [Row] = [
    Row(name: "nothing known held: the newest full, first on ties", held: nil, fulls: ["3a", "5b", "5c"], deltas: [],
        sync: .full(1), request: .full(1)),
    Row(name: "nothing known held and no full: nothing fits", held: nil, fulls: [], deltas: ["4a>5b"],
        sync: nil, request: nil),
    Row(name: "the held version and content", held: "5a", fulls: ["5a"], deltas: ["4b>5a"],
        sync: .upToDate, request: .upToDate),
    Row(name: "the held version, a digest unknown: judged by version", held: "5-", fulls: ["5a"], deltas: [],
        sync: .upToDate, request: .upToDate),
    Row(name: "the held version, another digest: a rebuilt snapshot is reloaded", held: "5a", fulls: ["5b"],
        deltas: [], sync: .full(0), request: .full(0)),
    Row(name: "an older full with the held content", held: "6a", fulls: ["5a"], deltas: [],
        sync: .sameContent, request: .sameContent),
    Row(name: "DIFFERS: a newer full with the held content", held: "4a", fulls: ["5a"], deltas: [],
        sync: .sameContent, request: .full(0)),
    Row(name: "DIFFERS: an empty delta on the held snapshot", held: "4a", fulls: ["5a"], deltas: ["4a>5a"],
        sync: .sameContent, request: .delta(0)),
    Row(name: "a delta on the held snapshot", held: "4a", fulls: ["5b"], deltas: ["3a>5b", "4a>5b"],
        sync: .delta(1), request: .delta(1)),
    Row(name: "a delta whose base digest is unknown matches by version", held: "4a", fulls: ["5b"],
        deltas: ["4->5b"], sync: .delta(0), request: .delta(0)),
    Row(name: "a delta on another content under the held version", held: "4a", fulls: ["5b"], deltas: ["4c>5b"],
        sync: .full(0), request: .full(0)),
    Row(name: "a delta older than the newest full", held: "4a", fulls: ["6b"], deltas: ["4a>5c"],
        sync: .full(0), request: .full(0)),
    Row(name: "the newest delta target wins, the first on ties", held: "4a", fulls: ["5b"],
        deltas: ["4a>5b", "4a>6c", "4a>6d"], sync: .delta(1), request: .delta(1)),
    Row(name: "a delta already applied beside an older full", held: "6a", fulls: ["5b"], deltas: ["5b>6a"],
        sync: .sameContent, request: .sameContent),
    Row(name: "a delta already applied, no full", held: "6a", fulls: [], deltas: ["5b>6a"],
        sync: .sameContent, request: .sameContent),
    Row(name: "an older full without the held content: a full replace (a downgrade)", held: "6a",
        fulls: ["5b"], deltas: [], sync: .full(0), request: .full(0)),
    Row(name: "only deltas on other bases: nothing fits", held: "4a", fulls: [], deltas: ["3a>4b", "4c>5d"],
        sync: nil, request: nil),
    Row(name: "held content unknown: a newer full is loaded by either", held: "4-", fulls: ["5a"], deltas: [],
        sync: .full(0), request: .full(0)),
  ]

  @Test(arguments: rows)
  func aSyncChooses(_ row: Row) {
    #expect(row.choose(with: Self.sync) == row.sync)
  }

  @Test(arguments: rows)
  func aRequestChooses(_ row: Row) {
    #expect(row.choose(with: Self.request) == row.request)
  }

  /// Each option alone: held content first but a newer snapshot of it
  /// loaded lets the delta win; a delta first but no reload for a newer
  /// snapshot of the held content records it when no delta is on offer.
  @Test func eachOptionDecidesItsOwnSituation() {
    let contentFirstReloading = Planner(.init(sameContentBeforeDeltas: true, newerSameContentNeedsNoReload: false))
    let deltaFirstRecording = Planner(.init(sameContentBeforeDeltas: false, newerSameContentNeedsNoReload: true))
    let emptyDelta = Row(name: "", held: "4a", fulls: ["5a"], deltas: ["4a>5a"])
    let newerSame = Row(name: "", held: "4a", fulls: ["5a"], deltas: [])
    #expect(emptyDelta.choose(with: contentFirstReloading) == .delta(0))
    #expect(emptyDelta.choose(with: deltaFirstRecording) == .delta(0))
    #expect(newerSame.choose(with: contentFirstReloading) == .full(0))
    #expect(newerSame.choose(with: deltaFirstRecording) == .sameContent)
  }

  /// The same rules over a provider's types: `UInt64` versions and
  /// content digests.
  @Test func versionsAndDigestsOfAnyType() throws {
    typealias Typed = SnapshotPlanner<UInt64, ContentDigest>
    let planner = Typed(.init(sameContentBeforeDeltas: false, newerSameContentNeedsNoReload: false))
    let a = try #require(ContentDigest(bytes: [UInt8](repeating: 1, count: 32)))
    let b = try #require(ContentDigest(bytes: [UInt8](repeating: 2, count: 32)))
    let held = Typed.Snapshot(version: 4, digest: a)
    let delta = Typed.Delta(base: held, target: .init(version: 5, digest: b))
    #expect(planner.choose(held: held, fulls: [.init(version: 5, digest: b)], deltas: [delta]) == .delta(0))
    #expect(planner.choose(held: held, fulls: [.init(version: 3, digest: a)], deltas: []) == .sameContent)
  }
}
