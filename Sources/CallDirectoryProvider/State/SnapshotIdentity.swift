import CallDirectoryFormat

/// Which snapshot a set of entries is: its version and content digest.
///
/// A full blob identifies the snapshot it holds; a delta blob names its
/// base and its target. The provider remembers the identity it last
/// committed and applies only deltas whose base is exactly that identity.
public struct SnapshotIdentity: Hashable, Sendable, CustomStringConvertible {
  /// The snapshot version.
  public var version: UInt64
  /// The SHA-256 content digest of the snapshot's entries.
  public var digest: ContentDigest

  /// Creates an identity.
  public init(version: UInt64, digest: ContentDigest) {
    self.version = version
    self.digest = digest
  }

  /// The identity of the snapshot a full blob holds, or a delta produces.
  public init(target header: BlobHeader) {
    self.init(version: header.version, digest: header.contentDigest)
  }

  /// `version <n> (<first 12 hex digits of the digest>)`.
  public var description: String {
    "version \(version) (\(String(digest.hex.prefix(12))))"
  }
}
