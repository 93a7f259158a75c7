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
    sources: [Int32], profileOfSource: (Int) -> Profile, version: Int, snapshotDigest: ContentDigest
  ) -> IdentityDetails {
    var profiles: [Profile] = []
    var indexOfProfile: [Profile: Int] = [:]
    var indexOfSource: [Int32: Int] = [:]
    var runs: [Run] = []
    for source in sources {
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
      if let last = runs.last, last.profile == index {
        runs[runs.count - 1].count += 1
      } else {
        runs.append(Run(count: 1, profile: index))
      }
    }
    return IdentityDetails(
      version: version, snapshotDigest: snapshotDigest, entryCount: sources.count, profiles: profiles, runs: runs)
  }

  // MARK: - Bytes

  static let magic: [UInt8] = Array("CDID".utf8)
  static let formatVersion: UInt8 = 1

  /// The file's bytes.
  public func encoded() -> [UInt8] {
    var bytes = Self.magic
    bytes.append(Self.formatVersion)
    Varint.append(UInt64(version), to: &bytes)
    bytes += snapshotDigest.bytes
    bytes += body
    var crc = CRC32C()
    bytes.withUnsafeBytes { crc.update($0) }
    withUnsafeBytes(of: crc.value.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// The part of the file that says what the entries carry (not which
  /// version): equal details have equal bodies.
  private var body: [UInt8] {
    var bytes: [UInt8] = []
    Varint.append(UInt64(entryCount), to: &bytes)
    Varint.append(UInt64(profiles.count), to: &bytes)
    for profile in profiles {
      bytes.append(profile.category.rawValue)
      bytes.append(profile.icon == nil ? 0 : 1)
      if let icon = profile.icon { bytes += icon }
    }
    Varint.append(UInt64(runs.count), to: &bytes)
    for run in runs {
      Varint.append(UInt64(run.count), to: &bytes)
      Varint.append(UInt64(run.profile), to: &bytes)
    }
    return bytes
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
