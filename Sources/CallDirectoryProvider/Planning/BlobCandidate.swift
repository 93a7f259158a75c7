import CallDirectoryFormat

/// A blob the extension could load: its path and its validated header.
public struct BlobCandidate: Hashable, Sendable {
  /// The blob's path.
  public var path: String
  /// Its header, validated (magic, version, header checksum, section table,
  /// file size) when it was read.
  public var header: BlobHeader

  /// Creates a candidate from a header the caller already read.
  public init(path: String, header: BlobHeader) {
    self.path = path
    self.header = header
  }

  /// Reads and validates the header of the blob at `path`.
  ///
  /// - Throws: ``CallDirectoryProviderError/unreadableBlob(path:_:)``, or
  ///   ``CallDirectoryProviderError/blobReadFailed(path:_:)`` when reading fails.
  public init(path: String) throws(CallDirectoryProviderError) {
    do {
      self.init(path: path, header: try BlobReader.readHeader(path: path))
    } catch {
      throw .reading(path, error, otherwise: CallDirectoryProviderError.unreadableBlob)
    }
  }

  /// The snapshot the blob holds (full) or produces (delta).
  public var target: SnapshotIdentity { SnapshotIdentity(target: header) }

  /// The snapshot a delta applies to; `nil` for a full snapshot.
  public var base: SnapshotIdentity? {
    header.kind == .delta ? SnapshotIdentity(version: header.baseVersion, digest: header.baseDigest) : nil
  }

  /// `full version 3` or `delta 2 → 3`, for messages.
  public var summary: String {
    switch header.kind {
    case .full: "full version \(header.version)"
    case .delta: "delta \(header.baseVersion) → \(header.version)"
    }
  }
}
