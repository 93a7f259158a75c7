import CallDirectoryFormat
import CalldirSystem

/// Reads and writes the provider's state file, a tiny JSON object kept in
/// the app-group container:
///
///     {"version":3,"digest":"98e6…8e37"}
///
/// with `"pendingVersion"` and `"pendingDigest"` while a request is
/// completing. Writes are atomic and durable (``AtomicFile``: temporary
/// file, `fsync`, `rename`, `fsync` of the directory), so a reader sees the
/// old or the new state, never a mixture. Versions are recorded as JSON
/// integers, exactly up to `Int64.max` (the catalog's range).
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
  ///   when the file cannot be read,
  ///   ``CallDirectoryProviderError/stateMalformed(path:reason:)`` when it
  ///   is not a valid state.
  public func load() throws(CallDirectoryProviderError) -> ProviderState {
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.contentsIfPresent(of: path, limit: Self.maximumSize, requiringRegularFile: true)
    } catch where error.errno == .fileTooLarge {
      throw .stateMalformed(path: path, reason: "it is larger than \(Self.maximumSize) bytes")
    } catch {
      throw .stateUnreadable(path: path, reason: error.description)
    }
    guard let bytes else { return ProviderState() }
    do {
      return try Self.decode(bytes)
    } catch {
      throw .stateMalformed(path: path, reason: error.reason)
    }
  }

  /// The state a request is planned with: the stored state, or an empty
  /// one (the loaded snapshot unknown) when the file is not a valid state,
  /// so that an incremental request resets and loads a full snapshot.
  ///
  /// - Throws: ``CallDirectoryProviderError/stateUnreadable(path:reason:)``
  ///   when the file cannot be read: an I/O error is not evidence about
  ///   the snapshot, so the request is refused rather than reset.
  public func loadForPlanning() throws(CallDirectoryProviderError) -> ProviderState {
    do {
      return try load()
    } catch .stateMalformed {
      return ProviderState()
    }
  }

  /// Replaces the state atomically.
  ///
  /// - Throws: ``CallDirectoryProviderError/stateWriteFailed(path:reason:)``.
  public func save(_ state: ProviderState) throws(CallDirectoryProviderError) {
    let bytes: [UInt8]
    do {
      bytes = try Self.encode(state)
    } catch {
      throw .stateWriteFailed(path: path, reason: error.reason)
    }
    do {
      try FileSystem.createDirectory(FileSystem.directoryName(of: path))
      try AtomicFile.write(bytes, to: path)
    } catch {
      throw .stateWriteFailed(path: path, reason: error.description)
    }
  }

  /// The JSON bytes of `state`, keys in a fixed order, ending with a newline.
  static func encode(_ state: ProviderState) throws(_StateFormatError) -> [UInt8] {
    var members: [(key: String, value: JSONValue)] = []
    func append(_ identity: SnapshotIdentity, _ versionKey: String, _ digestKey: String) throws(_StateFormatError) {
      guard let version = Int64(exactly: identity.version) else {
        throw _StateFormatError("version \(identity.version) is larger than the state file records (\(Int64.max))")
      }
      members.append((versionKey, .int(version)))
      members.append((digestKey, .string(identity.digest.hex)))
    }
    if let loaded = state.loaded { try append(loaded, "version", "digest") }
    if let pending = state.pending { try append(pending, "pendingVersion", "pendingDigest") }
    return Array((JSONValue.object(members).serialized() + "\n").utf8)
  }

  /// Parses the JSON bytes of a state; unknown keys are ignored. A
  /// version and its digest go together: both absent (or `null`), or a
  /// non-negative integer and 64 hexadecimal digits.
  static func decode(_ bytes: [UInt8]) throws(_StateFormatError) -> ProviderState {
    let parsed: JSONValue
    do throws(JSONParseError) {
      parsed = try JSONParser(maxDepth: 8).parse(bytes)
    } catch {
      throw _StateFormatError(error.description)
    }
    let root = try LocatedJSON(parsed, path: "") { _StateFormatError($0.description) }.object()
    func identity(_ versionKey: String, _ digestKey: String) throws(_StateFormatError) -> SnapshotIdentity? {
      let version = root.member(versionKey), digest = root.member(digestKey)
      guard version.ifNotNull != nil || digest.ifNotNull != nil else { return nil }
      let number = try version.integer(minimum: 0)
      guard let parsed = ContentDigest(hex: try digest.string()) else {
        throw digest.failure(expected: "64 hexadecimal digits")
      }
      return SnapshotIdentity(version: UInt64(number), digest: parsed)
    }
    return ProviderState(
      loaded: try identity("version", "digest"),
      pending: try identity("pendingVersion", "pendingDigest"))
  }
}

/// Why a state could not be encoded or parsed.
struct _StateFormatError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
