import CalldirSystem

/// Reads and writes a device's rollback floors: for each dataset it ever
/// synced, the highest version it accepted. A small JSON object:
///
///     {"floors":[{"dataset":"com.example.blocklist","version":5}]}
///
/// A sync refuses a manifest below its dataset's floor (a replay of an old,
/// genuinely signed manifest) unless the user allows the downgrade, and
/// raises the floor when it records a version. The floor is kept apart
/// from the ``SyncState`` and outlives it: a lost state, or a reset that
/// forgets the sync to adopt another dataset, must not open the device to
/// a rollback (`calldir device sync` keeps it in `DIR/rollback-floor.json`,
/// outside `DIR/sync/`; an app, where deleting the app does not remove it,
/// such as the keychain). Writes are atomic and durable (``AtomicFile``).
public struct RollbackFloorStore: Sendable, Hashable {
  /// The floor file.
  public let path: String

  /// The largest floor file accepted, in bytes.
  static let maximumSize = 1 << 20

  public init(path: String) {
    self.path = path
  }

  /// The floors by dataset; empty when the file does not exist.
  ///
  /// - Throws: ``SyncError/storage(_:)`` when the file cannot be read,
  ///   ``SyncError/rollbackFloorMalformed(path:reason:)`` when it is not a
  ///   floor file (a sync then refuses rather than guess the floor lower).
  public func load() throws(SyncError) -> [String: Int] {
    let bytes: [UInt8]?
    do {
      bytes = try FileSystem.contentsIfPresent(of: path, limit: Self.maximumSize)
    } catch where error.errno == .fileTooLarge {
      throw .rollbackFloorMalformed(path: path, reason: "it is larger than \(Self.maximumSize) bytes")
    } catch {
      throw .storage(error)
    }
    guard let bytes else { return [:] }
    do {
      return try Self.decode(bytes)
    } catch {
      throw .rollbackFloorMalformed(path: path, reason: error.reason)
    }
  }

  /// Records that the device accepted `version` of `dataset`: raises the
  /// dataset's floor to it, never lowers it (a downgrade the user allowed
  /// leaves the floor where it was, so the versions in between stay
  /// refused). Writes the file only when it changes; a malformed file is
  /// replaced by one that holds this floor alone (a sync goes on past a
  /// malformed floor only when the user allowed a downgrade).
  ///
  /// - Returns: The floors now recorded.
  /// - Throws: ``SyncError/storage(_:)``.
  @discardableResult
  public func record(_ dataset: String, version: Int) throws(SyncError) -> [String: Int] {
    var floors: [String: Int]
    do {
      floors = try load()
    } catch .rollbackFloorMalformed {
      floors = [:]
    }
    guard (floors[dataset] ?? 0) < version else { return floors }
    floors[dataset] = version
    do {
      try FileSystem.createDirectory(FileSystem.directoryName(of: path))
      try AtomicFile.write(Self.encode(floors), to: path)
    } catch {
      throw .storage(error)
    }
    return floors
  }

  /// The JSON bytes of `floors`, by dataset, ending in a line feed.
  static func encode(_ floors: [String: Int]) -> [UInt8] {
    let items: [JSONValue] = floors.sorted { $0.key < $1.key }.map {
      ["dataset": .string($0.key), "version": .int(Int64($0.value))]
    }
    var bytes: [UInt8] = []
    JSONValue.object([("floors", .array(items))]).serialize(into: &bytes)
    bytes.append(0x0A)
    return bytes
  }

  /// Parses a floor file; unknown keys are ignored.
  static func decode(_ bytes: [UInt8]) throws(_SyncStateFormatError) -> [String: Int] {
    let parsed: JSONValue
    do throws(JSONParseError) {
      parsed = try JSONParser(maxDepth: 8).parse(bytes)
    } catch {
      throw _SyncStateFormatError(error.description)
    }
    let root = try LocatedJSON(parsed, path: "") { _SyncStateFormatError($0.description) }.object()
    var floors: [String: Int] = [:]
    for item in try root.member("floors").objects() {
      let dataset = try item.member("dataset").string()
      let version = try item.member("version").integer(minimum: 1)
      guard floors[dataset] == nil else {
        throw item.member("dataset").failure(expected: "a dataset not listed before, got '\(dataset)'")
      }
      floors[dataset] = version
    }
    return floors
  }
}
