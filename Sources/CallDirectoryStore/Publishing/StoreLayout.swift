import CalldirSystem

/// Where a store keeps its files.
///
///     STORE/catalog.sqlite                   the catalog (schemas/catalog.sql)
///     STORE/manifest.json                    what phones fetch (schemas/manifest.schema.json)
///     STORE/manifest.json.sig                its Ed25519 signature, base64 (a line per signature)
///     STORE/lock                             held by a running build
///     STORE/snapshots/snapshot-000042.cdir   full snapshots
///     STORE/snapshots/snapshot-000042-shard-03.cdir   shard 3 of it (maxEntriesPerExtension)
///     STORE/snapshots/identities-000042.cdid          its identities' categories and icons (liveCallerID)
///     STORE/icons/<sha256>.heic              the identify sources' icons, by content
///     STORE/deltas/delta-000041-000042.cdir  deltas between versions (and per shard)
///     STORE/rejects/rejects-000042.txt       rejected lines of a build
///     STORE/rejects/conflicts-000042.txt     its label conflicts
///     STORE/refused/rejects-000043.txt       the reports of a build a guard refused
///     STORE/dry-run/rejects.txt              the reports of the last `build --dry-run`
public struct StoreLayout: Sendable {
  /// The store directory as the user named it.
  public let root: String

  public init(root: String) {
    self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
  }

  public var catalog: String { path("catalog.sqlite") }
  public var lock: String { path("lock") }
  public var snapshotsDirectory: String { path("snapshots") }
  public var deltasDirectory: String { path("deltas") }
  public var rejectsDirectory: String { path("rejects") }
  /// Reports of builds a guard refused (never published).
  public var refusedDirectory: String { path("refused") }
  /// Reports and scratch files of `build --dry-run` (never published).
  public var dryRunDirectory: String { path("dry-run") }
  /// The identify sources' icons, each under its SHA-256.
  public var iconsDirectory: String { path("icons") }

  /// A path inside the store from a path relative to it.
  public func path(_ relative: String) -> String { root + "/" + relative }

  static func snapshotName(_ version: Int, shard: Int? = nil) -> String {
    "snapshots/snapshot-\(padded(version))\(shardSuffix(shard)).cdir"
  }

  static func deltaName(from: Int, to: Int, shard: Int? = nil) -> String {
    "deltas/delta-\(padded(from))-\(padded(to))\(shardSuffix(shard)).cdir"
  }

  /// The version a published file belongs to (the target of a delta), from
  /// its name; nil for a name calldir does not publish (dot files included).
  static func version(ofFileNamed name: String) -> Int? {
    guard !name.hasPrefix(".") else { return nil }
    let numbers = name.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    for prefix in ["snapshot-", "identities-", "rejects-", "conflicts-"] where name.hasPrefix(prefix) {
      return numbers.first
    }
    if name.hasPrefix("delta-") { return numbers.count >= 2 ? numbers[1] : nil }
    return nil
  }

  /// The name a file is written under until the catalog has recorded its
  /// version: `.pending-` and its published name, in the same directory
  /// (`snapshots/.pending-snapshot-000042.cdir`). Builds are serialized by
  /// the lock, so the name is the same for every attempt at a version, and
  /// a build that finds one after a crash knows where it belongs.
  static func pendingName(for name: String) -> String {
    guard let slash = name.lastIndex(of: "/") else { return pendingPrefix + name }
    return String(name[...slash]) + pendingPrefix + String(name[name.index(after: slash)...])
  }

  /// What a pending file's name starts with.
  static let pendingPrefix = ".pending-"

  /// The highest version of any published file in the store's snapshot,
  /// delta and rejects directories (0 when none).
  func highestPublishedVersion() -> Int {
    var highest = 0
    for directory in [snapshotsDirectory, deltasDirectory, rejectsDirectory] {
      for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] {
        highest = max(highest, Self.version(ofFileNamed: name) ?? 0)
      }
    }
    return highest
  }

  private static func shardSuffix(_ shard: Int?) -> String {
    guard let shard else { return "" }
    return shard < 10 ? "-shard-0\(shard)" : "-shard-\(shard)"
  }
  /// The identity details of a version (``IdentityDetails``).
  static func identitiesName(_ version: Int) -> String { "snapshots/identities-\(padded(version)).cdid" }
  static func rejectsName(_ version: Int) -> String { "rejects/rejects-\(padded(version)).txt" }
  static func conflictsName(_ version: Int) -> String { "rejects/conflicts-\(padded(version)).txt" }
  static func refusedRejectsName(_ version: Int) -> String { "refused/rejects-\(padded(version)).txt" }
  static func refusedConflictsName(_ version: Int) -> String { "refused/conflicts-\(padded(version)).txt" }
  static let manifestName = "manifest.json"
  static let manifestSignatureName = "manifest.json.sig"
  static let dryRunRejectsName = "dry-run/rejects.txt"
  static let dryRunConflictsName = "dry-run/conflicts.txt"

  private static func padded(_ value: Int) -> String {
    let text = String(value)
    return text.count >= 6 ? text : String(repeating: "0", count: 6 - text.count) + text
  }
}
