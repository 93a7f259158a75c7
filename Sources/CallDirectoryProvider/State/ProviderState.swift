import CallDirectoryFormat

/// What the provider remembers between requests: the snapshot the system
/// last committed for it, and a request that may or may not have committed.
///
/// The loader writes ``pending`` just before `completeRequest` and replaces
/// the whole state once the completion reports success (or failure). A
/// state that still has ``pending`` set means the extension died in that
/// short window, so nobody knows which snapshot the system holds:
/// ``heldSnapshot`` is then `nil` and the next incremental request resets
/// the lists and loads a full blob.
public struct ProviderState: Hashable, Sendable {
  /// The snapshot the last committed request left in the system, if known.
  public var loaded: SnapshotIdentity?
  /// The snapshot of a request whose outcome was never recorded.
  public var pending: SnapshotIdentity?

  /// Creates a state (the default is the state of a fresh install).
  public init(loaded: SnapshotIdentity? = nil, pending: SnapshotIdentity? = nil) {
    self.loaded = loaded
    self.pending = pending
  }

  /// The snapshot a delta may be applied to: ``loaded`` when no request is
  /// in doubt, else `nil`.
  public var heldSnapshot: SnapshotIdentity? {
    pending == nil ? loaded : nil
  }
}

/// Reads and writes the provider's state file, a tiny JSON object kept in
/// the app-group container:
///
///     {"version":3,"digest":"98e6…8e37"}
///
/// with `"pendingVersion"` and `"pendingDigest"` while a request is
/// completing. Writes are atomic (temporary file, `fsync`, `rename`), so a
/// reader sees the old or the new state, never a mixture.
public struct ProviderStateStore: Sendable {
  /// The state file's path.
  public let path: String

  /// The largest state file accepted, in bytes.
  static let maximumSize = 4096

  /// Creates a store over `path` (the file need not exist).
  public init(path: String) {
    self.path = path
  }

  /// Reads the state.
  ///
  /// - Returns: The stored state, or an empty state when the file does not
  ///   exist.
  /// - Throws: ``CallDirectoryProviderError/stateUnreadable(path:reason:)``
  ///   when the file cannot be read or is not a valid state.
  public func load() throws(CallDirectoryProviderError) -> ProviderState {
    let bytes: [UInt8]?
    do {
      bytes = try _POSIX.readSmallFile(path, limit: Self.maximumSize)
    } catch {
      throw .stateUnreadable(path: path, reason: error.reason)
    }
    guard let bytes else { return ProviderState() }
    do {
      return try Self.decode(bytes)
    } catch {
      throw .stateUnreadable(path: path, reason: error.reason)
    }
  }

  /// Replaces the state atomically.
  ///
  /// - Throws: ``CallDirectoryProviderError/stateWriteFailed(path:reason:)``.
  public func save(_ state: ProviderState) throws(CallDirectoryProviderError) {
    let bytes = Self.encode(state)
    do {
      try _POSIX.ensureParentDirectory(of: path)
    } catch {
      throw .stateWriteFailed(path: path, reason: error.reason)
    }
    do {
      let sink = try FileBlobSink(path: path)
      do {
        try bytes.withUnsafeBytes { try sink.write($0) }
        try sink.commit()
      } catch {
        sink.abandon()
        throw error
      }
    } catch {
      throw .stateWriteFailed(path: path, reason: String(describing: error))
    }
  }

  /// The JSON bytes of `state`, keys in a fixed order, ending with a newline.
  static func encode(_ state: ProviderState) -> [UInt8] {
    var members: [String] = []
    if let loaded = state.loaded {
      members.append("\"version\":\(loaded.version)")
      members.append("\"digest\":\"\(loaded.digest.hex)\"")
    }
    if let pending = state.pending {
      members.append("\"pendingVersion\":\(pending.version)")
      members.append("\"pendingDigest\":\"\(pending.digest.hex)\"")
    }
    return Array(("{" + members.joined(separator: ",") + "}\n").utf8)
  }

  /// Parses the JSON bytes of a state; unknown keys are ignored.
  static func decode(_ bytes: [UInt8]) throws(_StateFormatError) -> ProviderState {
    let members = try _FlatJSON.parseObject(bytes)
    func identity(_ versionKey: String, _ digestKey: String) throws(_StateFormatError) -> SnapshotIdentity? {
      let version = members[versionKey]
      let digest = members[digestKey]
      switch (version, digest) {
      case (nil, nil), (.null?, .null?), (.null?, nil), (nil, .null?):
        return nil
      case (.integer(let number)?, .string(let hex)?):
        guard let parsed = ContentDigest(hex: hex) else {
          throw _StateFormatError("\(digestKey) is not 64 hexadecimal digits")
        }
        return SnapshotIdentity(version: number, digest: parsed)
      default:
        throw _StateFormatError("\(versionKey) and \(digestKey) must be an integer and a digest, together")
      }
    }
    return ProviderState(
      loaded: try identity("version", "digest"),
      pending: try identity("pendingVersion", "pendingDigest"))
  }
}
