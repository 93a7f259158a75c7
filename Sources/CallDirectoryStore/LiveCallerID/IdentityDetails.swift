import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem
import Sodium

/// What a Live Caller ID Lookup identity carries besides the label, per
/// identification entry of a version: its category and icon, those of the
/// identify source whose label won (`schemas/identity-details.md`).
///
/// Entries are ascending, as in the snapshot; runs give each one a profile:
///
///     profiles [ (business, icon 3f2a…), (unspecified, none) ]
///     runs     [ 1200 × profile 0, 40 × profile 1, … ]
///
/// The build writes it (`snapshots/identities-NNNNNN.cdid`) with every
/// version of a config that has `liveCallerID`; the export reads it beside
/// the snapshot.
public struct IdentityDetails: Sendable, Hashable {
  /// A category and an icon.
  public struct Profile: Sendable, Hashable {
    public var category: IdentityCategory
    /// The SHA-256 of the icon's HEIC bytes (`STORE/icons/<hex>.heic`), nil for none.
    public var icon: [UInt8]?

    public init(category: IdentityCategory, icon: [UInt8]? = nil) {
      self.category = category
      self.icon = icon
    }
  }

  /// A stretch of consecutive entries with one profile.
  public struct Run: Sendable, Hashable {
    public var count: Int
    public var profile: Int

    public init(count: Int, profile: Int) {
      self.count = count
      self.profile = profile
    }
  }

  /// The version of the snapshot the details belong to.
  public var version: Int
  /// That snapshot's content digest.
  public var snapshotDigest: ContentDigest
  /// Its identification entries.
  public var entryCount: Int
  /// Distinct profiles, in the order entries first use them.
  public var profiles: [Profile]
  /// Runs over the entries, in order; their counts add up to ``entryCount``.
  public var runs: [Run]

  public init(version: Int, snapshotDigest: ContentDigest, entryCount: Int, profiles: [Profile], runs: [Run]) {
    self.version = version
    self.snapshotDigest = snapshotDigest
    self.entryCount = entryCount
    self.profiles = profiles
    self.runs = runs
  }

  /// The details of entries whose winning sources are `sources` (config
  /// indices, one per entry), each source's profile from `profileOfSource`.
  static func of(
    sources: [Int32], profileOfSource: @escaping (Int) -> Profile, version: Int, snapshotDigest: ContentDigest
  ) -> IdentityDetails {
    var folder = RunFolder(profileOfSource: profileOfSource)
    var runs: [Run] = []
    for source in sources {
      if let run = folder.add(source: source) { runs.append(run) }
    }
    if let run = folder.finish() { runs.append(run) }
    return IdentityDetails(
      version: version, snapshotDigest: snapshotDigest, entryCount: sources.count, profiles: folder.profiles,
      runs: runs)
  }

  /// Gives entries, one at a time, the profiles of their winning sources
  /// and folds consecutive entries of one profile into runs: profiles are
  /// numbered in the order entries first use them, equal ones once.
  struct RunFolder {
    private let profileOfSource: (Int) -> Profile
    /// The profiles so far, in the order entries first used them.
    private(set) var profiles: [Profile] = []
    private var indexOfProfile: [Profile: Int] = [:]
    private var indexOfSource: [Int32: Int] = [:]
    /// The run the next entry may extend.
    private var open: Run?

    init(profileOfSource: @escaping (Int) -> Profile) {
      self.profileOfSource = profileOfSource
    }

    /// Adds the next entry, whose label `source` gave; returns the run it
    /// ended, if it started another.
    mutating func add(source: Int32) -> Run? {
      let index: Int
      if let known = indexOfSource[source] {
        index = known
      } else {
        let profile = profileOfSource(Int(source))
        if let known = indexOfProfile[profile] {
          index = known
        } else {
          index = profiles.count
          profiles.append(profile)
          indexOfProfile[profile] = index
        }
        indexOfSource[source] = index
      }
      if let run = open, run.profile == index {
        open?.count += 1
        return nil
      }
      defer { open = Run(count: 1, profile: index) }
      return open
    }

    /// The last run, once every entry was added.
    mutating func finish() -> Run? {
      defer { open = nil }
      return open
    }
  }

  // MARK: - Bytes

  static let magic: [UInt8] = Array("CDID".utf8)
  static let formatVersion: UInt8 = 1

  /// The file's bytes.
  public func encoded() -> [UInt8] {
    var bytes = Self.head(version: version, snapshotDigest: snapshotDigest)
    bytes += body
    var crc = CRC32C()
    bytes.withUnsafeBytes { crc.update($0) }
    withUnsafeBytes(of: crc.value.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// The part of the file that says what the entries carry (not which
  /// version): equal details have equal bodies.
  private var body: [UInt8] {
    var bytes = Self.bodyHead(entryCount: entryCount, profiles: profiles, runCount: runs.count)
    for run in runs { Self.append(run, to: &bytes) }
    return bytes
  }

  /// The file's bytes before its body: magic, format version, version and
  /// the snapshot's digest.
  static func head(version: Int, snapshotDigest: ContentDigest) -> [UInt8] {
    var bytes = magic
    bytes.append(formatVersion)
    Varint.append(UInt64(version), to: &bytes)
    bytes += snapshotDigest.bytes
    return bytes
  }

  /// The body's bytes before its runs: the entry count, the profiles, the
  /// run count.
  static func bodyHead(entryCount: Int, profiles: [Profile], runCount: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    Varint.append(UInt64(entryCount), to: &bytes)
    Varint.append(UInt64(profiles.count), to: &bytes)
    for profile in profiles {
      bytes.append(profile.category.rawValue)
      bytes.append(profile.icon == nil ? 0 : 1)
      if let icon = profile.icon { bytes += icon }
    }
    Varint.append(UInt64(runCount), to: &bytes)
    return bytes
  }

  /// Appends a run's bytes (its length, its profile).
  static func append(_ run: Run, to bytes: inout [UInt8]) {
    Varint.append(UInt64(run.count), to: &bytes)
    Varint.append(UInt64(run.profile), to: &bytes)
  }

  /// The SHA-256 (hex) of what the entries carry, whatever the version:
  /// what the build compares to tell an unchanged version.
  public var digest: String {
    ContentDigest(bytes: SodiumSHA256.hash(body))?.hex ?? ""
  }

  /// Reads the file's bytes, checking everything: magic, format version,
  /// CRC-32C, that profiles and runs are in range and the runs cover the
  /// entries exactly.
  /// - Throws: ``IdentityDetailsError`` naming what is wrong.
  public init(decoding bytes: [UInt8]) throws(IdentityDetailsError) {
    guard bytes.count >= Self.magic.count + 1 + 1 + 32 + 4 else { throw .truncated }
    guard Array(bytes.prefix(4)) == Self.magic else { throw .malformed("it does not start with 'CDID'") }
    guard bytes[4] == Self.formatVersion else { throw .malformed("format version \(bytes[4]) is not 1") }
    let stored = bytes.suffix(4).withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    var crc = CRC32C()
    bytes.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[..<(bytes.count - 4)])) }
    guard crc.value == stored else { throw .malformed("its CRC-32C does not match") }
    var parsed: IdentityDetails?
    var failure: IdentityDetailsError?
    bytes.withUnsafeBytes { raw in
      let buffer = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 4)])
      var position = 5
      func varint(_ what: String) throws(IdentityDetailsError) -> Int {
        guard let value = Varint.read(buffer, at: &position), value <= UInt64(Int.max) else {
          throw .malformed("its \(what) is not a varint")
        }
        return Int(value)
      }
      func take(_ count: Int) throws(IdentityDetailsError) -> [UInt8] {
        guard count <= buffer.count - position else { throw .truncated }
        defer { position += count }
        return Array(buffer[position..<(position + count)])
      }
      do throws(IdentityDetailsError) {
        let version = try varint("version")
        guard let digest = ContentDigest(bytes: try take(32)) else { throw .truncated }
        let entries = try varint("entry count")
        let profileCount = try varint("profile count")
        // Each profile takes at least two bytes.
        guard profileCount <= (buffer.count - position) / 2 else { throw .truncated }
        var profiles: [Profile] = []
        for index in 0..<profileCount {
          let header = try take(2)
          guard let category = IdentityCategory(rawValue: header[0]) else {
            throw .malformed("profile \(index) has category \(header[0])")
          }
          guard header[1] <= 1 else { throw .malformed("profile \(index) has flags \(header[1])") }
          profiles.append(Profile(category: category, icon: header[1] == 1 ? try take(32) : nil))
        }
        let runCount = try varint("run count")
        guard runCount <= (buffer.count - position) / 2 else { throw .truncated }
        var runs: [Run] = []
        runs.reserveCapacity(runCount)
        var covered = 0
        for index in 0..<runCount {
          let count = try varint("run \(index)'s length")
          let profile = try varint("run \(index)'s profile")
          guard count >= 1, profile < profiles.count else {
            throw .malformed("run \(index) has \(count) entries of profile \(profile) (of \(profiles.count))")
          }
          covered = covered.addingReportingOverflow(count).overflow ? Int.max : covered + count
          runs.append(Run(count: count, profile: profile))
        }
        guard covered == entries else { throw .malformed("its runs cover \(covered) entries, not \(entries)") }
        guard position == buffer.count else { throw .malformed("it has \(buffer.count - position) bytes after its runs") }
        parsed = IdentityDetails(
          version: version, snapshotDigest: digest, entryCount: entries, profiles: profiles, runs: runs)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    guard let parsed else { throw .truncated }
    self = parsed
  }

  /// The most bytes a details file may hold: a profile and a run per
  /// entry of the largest blob a store holds.
  public static let fileLimit = 1 << 30

  /// Reads and checks the file at `path`.
  /// - Throws: ``IdentityDetailsError``: `file` when it cannot be read.
  public init(path: String) throws(IdentityDetailsError) {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(of: path, limit: Self.fileLimit, requiringRegularFile: true)
    } catch {
      throw .file(error)
    }
    try self.init(decoding: bytes)
  }
}

/// Why an identity details file cannot be used.
public enum IdentityDetailsError: Error, Hashable, CustomStringConvertible {
  case truncated
  case malformed(String)
  case file(FileError)

  public var description: String {
    switch self {
    case .truncated: "the identity details end too soon"
    case .malformed(let problem): "the identity details are malformed: \(problem)"
    case .file(let error): error.description
    }
  }
}
