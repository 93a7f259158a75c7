import CalldirSystem

/// Reads and writes a device's ``SyncState``, a small JSON object:
///
///     {"dataset":"com.example.blocklist","version":5,"published":"2026-12-01T03:00:00Z",
///      "incrementalSyncs":2,"extensions":[{"index":1,"version":5,"digest":"98e6…8e37"},{"index":2,"version":5}]}
///
/// (an extension's `digest`, the content digest it holds, only when known;
/// a state written before the key existed has none).
///
/// Writes are atomic and durable (``AtomicFile``), so a reader sees the
/// previous state or the new one, never a mixture.
public struct SyncStateStore: Sendable, Hashable {
  /// The state file.
  public let path: String

  /// The largest state file accepted, in bytes.
  static let maximumSize = 1 << 20

  public init(path: String) {
    self.path = path
  }

  /// The recorded state, or nil when the device never synced.
  ///
  /// - Throws: ``SyncError/storage(_:)`` when the file cannot be read,
  ///   ``SyncError/stateMalformed(path:reason:)`` when it is not a state.
  public func load() throws(SyncError) -> SyncState? {
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.contentsIfPresent(of: path, limit: Self.maximumSize, requiringRegularFile: true)
    } catch where error.errno == .fileTooLarge {
      throw .stateMalformed(path: path, reason: "it is larger than \(Self.maximumSize) bytes")
    } catch {
      throw .storage(error)
    }
    guard let bytes else { return nil }
    do {
      return try Self.decode(bytes)
    } catch {
      throw .stateMalformed(path: path, reason: error.reason)
    }
  }

  /// Replaces the state atomically and durably.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  public func save(_ state: SyncState) throws(SyncError) {
    do {
      try FileSystem.createDirectory(FileSystem.directoryName(of: path))
      try AtomicFile.write(Self.encode(state), to: path)
    } catch {
      throw .storage(error)
    }
  }

  /// Removes the state: the next sync is a first sync.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  public func remove() throws(SyncError) {
    do {
      try FileSystem.removeFile(path)
      if FileSystem.exists(FileSystem.directoryName(of: path)) {
        try FileSystem.syncDirectory(containing: path)
      }
    } catch {
      throw .storage(error)
    }
  }

  /// The JSON bytes of `state`, keys in a fixed order, extensions by
  /// index, ending in a line feed.
  static func encode(_ state: SyncState) -> [UInt8] {
    let value: JSONValue = [
      "dataset": .string(state.dataset),
      "version": .int(Int64(state.version)),
      "published": .string(state.published),
      "incrementalSyncs": .int(Int64(state.incrementalSyncs)),
      "extensions": .array(
        state.extensions.sorted { $0.key < $1.key }.map { index, version in
          var members: [(key: String, value: JSONValue)] = [
            ("index", .int(Int64(index))), ("version", .int(Int64(version))),
          ]
          if let digest = state.digests[index] { members.append((key: "digest", value: .string(digest))) }
          return .object(members)
        }),
    ]
    var bytes: [UInt8] = []
    value.serialize(into: &bytes)
    bytes.append(0x0A)
    return bytes
  }

  /// Parses a state; unknown keys are ignored.
  static func decode(_ bytes: [UInt8]) throws(_SyncStateFormatError) -> SyncState {
    let parsed: JSONValue
    do throws(JSONParseError) {
      parsed = try JSONParser(maxDepth: 8).parse(bytes)
    } catch {
      throw _SyncStateFormatError(error.description)
    }
    let root = try LocatedJSON(parsed, path: "") { _SyncStateFormatError($0.description) }.object()
    let dataset = try root.member("dataset").string()
    let published = try root.member("published").string()
    var extensions: [Int: Int] = [:]
    var digests: [Int: String] = [:]
    for item in try root.member("extensions").objects() {
      let index = try item.member("index").integer(minimum: 1)
      guard extensions[index] == nil else {
        throw item.member("index").failure(expected: "an extension not listed before, got \(index)")
      }
      extensions[index] = try item.member("version").integer(minimum: 1)
      digests[index] = try item.member("digest").ifNotNull?.sha256()
    }
    return SyncState(
      dataset: dataset, version: try root.member("version").integer(minimum: 1), published: published,
      incrementalSyncs: try root.member("incrementalSyncs").integer(minimum: 0), extensions: extensions,
      digests: digests)
  }
}

/// Why a sync state could not be parsed.
struct _SyncStateFormatError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
