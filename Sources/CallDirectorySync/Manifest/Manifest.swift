/// What a store publishes for phones to fetch (`STORE/manifest.json`,
/// `schemas/manifest.schema.json`): the dataset, its latest version, and per
/// Call Directory extension the full snapshot and every delta to it, each
/// with its size and SHA-256. Paths are relative to the store, so the
/// store's `manifest.json*`, `snapshots/` and `deltas/` copied to any static
/// host are the whole deployment.
///
/// The manifest is signed (`manifest.json.sig`, Ed25519 over its exact
/// bytes); a phone trusts nothing it names before the signature verifies
/// (``ManifestTrust``).
public struct Manifest: Sendable, Hashable {
  /// The dataset's name, e.g. `com.example.blocklist`.
  public var dataset: String
  /// The version the manifest describes.
  public var version: Int
  /// When it was published, ISO 8601 UTC.
  public var published: String
  /// After this many consecutive incremental syncs a phone loads full
  /// snapshots instead, so that drift cannot accumulate.
  public var fullEvery: Int
  /// When the manifest stops being trusted, ISO 8601 UTC; nil when it
  /// never does. A store that sets it signs a fresh manifest with every
  /// build, changed or not, so a phone that is served a copy past it knows
  /// its source stopped updating (a stale mirror, or a freeze attack).
  public var expires: String?
  /// One entry per extension, by ascending index.
  public var extensions: [Extension]

  public init(
    dataset: String, version: Int, published: String, fullEvery: Int, expires: String? = nil, extensions: [Extension]
  ) {
    self.dataset = dataset
    self.version = version
    self.published = published
    self.fullEvery = fullEvery
    self.expires = expires
    self.extensions = extensions
  }

  /// One Call Directory extension's data.
  public struct Extension: Sendable, Hashable {
    /// 1, 2, … (an unsharded dataset has one extension, index 1).
    public var index: Int
    /// The numbers the extension holds: `lower ... upper`.
    public var lower: Int64
    public var upper: Int64
    public var counts: Counts
    /// The content digest of the extension's entries at this version
    /// (SHA-256, lowercase hex: the full snapshot's header's), nil in a
    /// manifest written before the key existed. An extension that holds
    /// this digest already needs no reload (``SyncPlanner``).
    public var digest: String?
    /// The full snapshot of the version.
    public var full: File
    /// Deltas from earlier versions to this one, newest base first.
    public var deltas: [Delta]

    public init(
      index: Int, lower: Int64, upper: Int64, counts: Counts, digest: String? = nil, full: File, deltas: [Delta]
    ) {
      self.index = index
      self.lower = lower
      self.upper = upper
      self.counts = counts
      self.digest = digest
      self.full = full
      self.deltas = deltas
    }

    /// The entries a full reload of the extension adds: all of them.
    public var entries: Int { counts.blocking.addingClamped(counts.identification) }
  }

  /// Entries of an extension.
  public struct Counts: Sendable, Hashable {
    public var blocking: Int
    public var identification: Int

    public init(blocking: Int, identification: Int) {
      self.blocking = blocking
      self.identification = identification
    }
  }

  /// A file of the store.
  public struct File: Sendable, Hashable {
    /// Relative to the store (and to the manifest's URL), `/`-separated.
    public var path: String
    public var bytes: Int64
    /// The SHA-256 of its bytes, lowercase hex.
    public var sha256: String

    public init(path: String, bytes: Int64, sha256: String) {
      self.path = path
      self.bytes = bytes
      self.sha256 = sha256
    }
  }

  /// A delta from version `from`.
  public struct Delta: Sendable, Hashable {
    public var from: Int
    public var file: File
    /// The entries the delta adds (blocking and identification), nil in a
    /// manifest written before the key existed.
    public var adds: Int?
    /// The entries it removes (blocking and identification; a changed
    /// label is a remove and an add), nil in a manifest written before the
    /// key existed.
    public var removes: Int?

    public init(from: Int, file: File, adds: Int? = nil, removes: Int? = nil) {
      self.from = from
      self.file = file
      self.adds = adds
      self.removes = removes
    }

    /// The entries a reload that applies the delta adds or removes: what
    /// it costs the phone (``ReloadCost``); nil when the manifest does not
    /// say.
    public var entries: Int? {
      guard let adds, let removes else { return nil }
      return adds.addingClamped(removes)
    }
  }
}

extension Int {
  /// The sum, `Int.max` when it overflows (entry counts of a manifest
  /// are at most `Int64.max` each).
  func addingClamped(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
