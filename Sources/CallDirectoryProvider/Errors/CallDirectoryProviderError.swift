import CallDirectoryFormat

/// Why the provider refused or abandoned a request.
///
/// The loader passes these to `cancelRequest(withError:)`, so the app's
/// `reloadExtension` completion receives them; nothing is committed and the
/// provider's state is unchanged. ``errorDomain`` and ``errorCode`` are
/// stable, so they survive `NSError` bridging (a host that imports
/// Foundation can add `extension CallDirectoryProviderError: CustomNSError {}`).
public enum CallDirectoryProviderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No available blob fits the request: a complete request needs a full
  /// snapshot, and an incremental one needs a full snapshot or a delta whose
  /// base is the snapshot the provider holds. The message says what was
  /// available.
  case noUsableBlob(String)
  /// A blob's header could not be read or is invalid (checked before any
  /// entry is streamed).
  case unreadableBlob(path: String, BlobError)
  /// The blob turned out corrupt or truncated while streaming (a frame or
  /// section checksum, or the structure); the request is cancelled, so the
  /// system drops every entry already sent.
  case corruptBlob(path: String, BlobError)
  /// The entries streamed from a full snapshot do not have the content
  /// digest its header records.
  case digestMismatch(path: String, expected: ContentDigest, actual: ContentDigest)
  /// The blob changed between planning and streaming (another header).
  case blobChanged(path: String)
  /// The provider's state file exists but cannot be read (an I/O error).
  case stateUnreadable(path: String, reason: String)
  /// The provider's state file could not be written.
  case stateWriteFailed(path: String, reason: String)
  /// The data directory exists but cannot be listed.
  case dataDirectoryUnreadable(path: String, reason: String)
  /// The request would replace the held snapshot with an older version
  /// (see ``LoadPlanner``), and downgrades were not allowed.
  case downgrade(held: SnapshotIdentity, offered: SnapshotIdentity)
  /// The provider's state file was read but is not a valid state. The
  /// loader then treats the loaded snapshot as unknown.
  case stateMalformed(path: String, reason: String)
  /// A blob could not be placed into the data directory.
  case dataWriteFailed(path: String, reason: String)
  /// Reading a blob failed (an I/O error, not damage): nothing is wrong
  /// with the data, so the request is retried later.
  case blobReadFailed(path: String, BlobError)

  /// The error for `error`, met reading the blob at `path`: a failed read
  /// is ``blobReadFailed(path:_:)``, anything else `otherwise`'s.
  static func reading(
    _ path: String, _ error: BlobError, otherwise: (String, BlobError) -> CallDirectoryProviderError
  ) -> CallDirectoryProviderError {
    if case .io = error { return .blobReadFailed(path: path, error) }
    return otherwise(path, error)
  }

  /// The error domain, `CallDirectoryProvider`.
  public static let errorDomain = "CallDirectoryProvider"

  /// A stable code per case, starting at 1 (``noUsableBlob(_:)``) in
  /// declaration order.
  public var errorCode: Int {
    switch self {
    case .noUsableBlob: 1
    case .unreadableBlob: 2
    case .corruptBlob: 3
    case .digestMismatch: 4
    case .blobChanged: 5
    case .stateUnreadable: 6
    case .stateWriteFailed: 7
    case .dataDirectoryUnreadable: 8
    case .downgrade: 9
    case .stateMalformed: 10
    case .dataWriteFailed: 11
    case .blobReadFailed: 12
    }
  }

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .noUsableBlob(let message):
      "no usable blob: \(message)"
    case .unreadableBlob(let path, let error):
      "cannot use blob '\(path)': \(error)"
    case .corruptBlob(let path, let error):
      "blob '\(path)' is corrupt: \(error)"
    case .digestMismatch(let path, let expected, let actual):
      "blob '\(path)' does not hold the entries its header promises: content digest \(actual.hex), expected \(expected.hex)"
    case .blobChanged(let path):
      "blob '\(path)' changed while the request was being prepared"
    case .stateUnreadable(let path, let reason):
      "cannot read the provider state '\(path)': \(reason)"
    case .stateWriteFailed(let path, let reason):
      "cannot write the provider state '\(path)': \(reason)"
    case .dataDirectoryUnreadable(let path, let reason):
      "cannot list the data directory '\(path)': \(reason)"
    case .downgrade(let held, let offered):
      "the extension holds version \(held.version); refusing to load version \(offered.version) (older)"
    case .stateMalformed(let path, let reason):
      "the provider state '\(path)' is not valid: \(reason)"
    case .dataWriteFailed(let path, let reason):
      "cannot place blobs into the data directory '\(path)': \(reason)"
    case .blobReadFailed(let path, let error):
      "cannot read blob '\(path)': \(error)"
    }
  }
}
