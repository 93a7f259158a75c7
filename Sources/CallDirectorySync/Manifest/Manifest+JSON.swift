import CallDirectoryFormat
import CalldirSystem

extension Manifest {
  /// The manifest's bytes: one JSON object in a fixed key order, ending in
  /// a line feed, the same bytes for the same manifest.
  public func serialized() -> [UInt8] {
    var bytes: [UInt8] = []
    json.serialize(into: &bytes)
    bytes.append(0x0A)
    return bytes
  }

  /// The manifest as a JSON value (`expires` only when it is set, so a
  /// manifest without it keeps the bytes it had before the key existed).
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("dataset", .string(dataset)),
      ("version", .int(Int64(version))),
      ("published", .string(published)),
      ("fullEvery", .int(Int64(fullEvery))),
    ]
    if let expires { members.append((key: "expires", value: .string(expires))) }
    members.append((key: "extensions", value: extensionsJSON))
    return .object(members)
  }

  /// Each extension's object: `digest` after `counts`, and a delta's
  /// `adds` and `removes` after its `sha256`, only when they are known, so
  /// a manifest without them keeps the bytes it had before the keys existed.
  private var extensionsJSON: JSONValue {
    .array(extensions.map { item in
      var members: [(key: String, value: JSONValue)] = [
        ("index", .int(Int64(item.index))),
        ("lower", .int(item.lower)),
        ("upper", .int(item.upper)),
        ("counts", ["blocking": .int(Int64(item.counts.blocking)), "identification": .int(Int64(item.counts.identification))]),
      ]
      if let digest = item.digest { members.append((key: "digest", value: .string(digest))) }
      members.append((key: "full", value: Self.json(item.full)))
      members.append((key: "deltas", value: .array(item.deltas.map { delta in
        var members: [(key: String, value: JSONValue)] = [
          ("from", .int(Int64(delta.from))), ("path", .string(delta.file.path)),
          ("bytes", .int(delta.file.bytes)), ("sha256", .string(delta.file.sha256)),
        ]
        if let adds = delta.adds, let removes = delta.removes {
          members.append((key: "adds", value: .int(Int64(adds))))
          members.append((key: "removes", value: .int(Int64(removes))))
        }
        return .object(members)
      })))
      return .object(members)
    })
  }

  private static func json(_ file: File) -> JSONValue {
    ["path": .string(file.path), "bytes": .int(file.bytes), "sha256": .string(file.sha256)]
  }

  /// Reads a manifest, strictly: the keys of `schemas/manifest.schema.json`
  /// with their types (other keys are allowed and ignored, for versions to
  /// come), safe relative paths, lowercase 64-digit SHA-256s, extensions in
  /// ascending index order with disjoint ascending bounds. The optional
  /// keys an older manifest lacks (an extension's `digest`, a delta's
  /// `adds` and `removes`, which go together) are nil when absent and
  /// checked when present.
  /// - Throws: ``ManifestError/malformed(_:)`` saying what is wrong.
  public init(parsing bytes: [UInt8]) throws(ManifestError) {
    let root: JSONValue
    do {
      root = try JSONParser(maxDepth: 16).parse(bytes)
    } catch {
      throw .malformed("not json: line \(error.line), column \(error.column): \(error.reasonText)")
    }
    let object = try Self.object(root, at: "manifest")
    dataset = try Self.string(object, "dataset", at: "manifest")
    guard dataset.utf8.count <= BlobLimits.maxDatasetBytes else {
      throw .malformed("manifest.dataset: longer than \(BlobLimits.maxDatasetBytes) bytes")
    }
    version = try Self.integer(object, "version", at: "manifest", minimum: 1)
    published = try Self.time(object, "published")
    fullEvery = try Self.integer(object, "fullEvery", at: "manifest", minimum: 1)
    expires = object["expires"] == nil ? nil : try Self.time(object, "expires")
    guard case .array(let items)? = object["extensions"] else { throw .malformed("manifest.extensions: expected an array") }
    guard !items.isEmpty else { throw .malformed("manifest.extensions: expected at least one extension") }
    var extensions: [Extension] = []
    for (position, value) in items.enumerated() {
      let at = "manifest.extensions[\(position)]"
      let item = try Self.object(value, at: at)
      let counts = try Self.object(item["counts"] ?? .null, at: "\(at).counts")
      var deltas: [Delta] = []
      guard case .array(let deltaItems)? = item["deltas"] else { throw .malformed("\(at).deltas: expected an array") }
      for (deltaPosition, deltaValue) in deltaItems.enumerated() {
        let deltaAt = "\(at).deltas[\(deltaPosition)]"
        let delta = try Self.object(deltaValue, at: deltaAt)
        let adds = try Self.optionalInteger(delta, "adds", at: deltaAt)
        let removes = try Self.optionalInteger(delta, "removes", at: deltaAt)
        guard (adds == nil) == (removes == nil) else {
          throw .malformed("\(deltaAt): 'adds' and 'removes' go together, it has only '\(adds == nil ? "removes" : "adds")'")
        }
        deltas.append(Delta(
          from: try Self.integer(delta, "from", at: deltaAt, minimum: 1), file: try Self.file(delta, at: deltaAt),
          adds: adds, removes: removes))
      }
      let index = try Self.integer(item, "index", at: at, minimum: 1)
      let lower = Int64(try Self.integer(item, "lower", at: at, minimum: 1))
      let upper = Int64(try Self.integer(item, "upper", at: at, minimum: 1))
      guard lower <= upper else { throw .malformed("\(at): lower \(lower) is above upper \(upper)") }
      if let previous = extensions.last {
        guard index == previous.index + 1 else { throw .malformed("\(at).index: expected \(previous.index + 1), got \(index)") }
        guard lower > previous.upper else { throw .malformed("\(at): its numbers overlap extension \(previous.index)'s") }
      } else if index != 1 {
        throw .malformed("\(at).index: the first extension is 1, got \(index)")
      }
      extensions.append(Extension(
        index: index, lower: lower, upper: upper,
        counts: Counts(
          blocking: try Self.integer(counts, "blocking", at: "\(at).counts", minimum: 0),
          identification: try Self.integer(counts, "identification", at: "\(at).counts", minimum: 0)),
        digest: item["digest"] == nil ? nil : try Self.sha256(item, "digest", at: at),
        full: try Self.file(try Self.object(item["full"] ?? .null, at: "\(at).full"), at: "\(at).full"),
        deltas: deltas))
    }
    self.extensions = extensions
  }

  private static func object(_ value: JSONValue, at path: String) throws(ManifestError) -> [String: JSONValue] {
    guard case .object(let members) = value else { throw .malformed("\(path): expected an object") }
    var object: [String: JSONValue] = [:]
    for (key, member) in members { object[key] = member }
    return object
  }

  /// An ISO 8601 UTC time as calldir writes it: `2026-12-08T00:00:00Z`
  /// (``UTCTime``'s grammar, the one the build writes with).
  private static func time(_ object: [String: JSONValue], _ key: String) throws(ManifestError) -> String {
    guard case .string(let text)? = object[key], UTCTime.parseTimestamp(text) != nil else {
      throw .malformed("manifest.\(key): expected an ISO 8601 UTC time such as 2026-12-08T00:00:00Z")
    }
    return text
  }

  private static func string(_ object: [String: JSONValue], _ key: String, at path: String) throws(ManifestError) -> String {
    guard case .string(let text)? = object[key] else { throw .malformed("\(path).\(key): expected a string") }
    return text
  }

  private static func integer(
    _ object: [String: JSONValue], _ key: String, at path: String, minimum: Int64
  ) throws(ManifestError) -> Int {
    guard case .int(let value)? = object[key] else { throw .malformed("\(path).\(key): expected an integer") }
    guard value >= minimum else { throw .malformed("\(path).\(key): expected at least \(minimum), got \(value)") }
    return Int(value)
  }

  /// An optional non-negative integer: nil when the key is absent.
  private static func optionalInteger(
    _ object: [String: JSONValue], _ key: String, at path: String
  ) throws(ManifestError) -> Int? {
    object[key] == nil ? nil : try integer(object, key, at: path, minimum: 0)
  }

  /// A SHA-256 in lowercase hex (a file's, or a content digest).
  private static func sha256(_ object: [String: JSONValue], _ key: String, at path: String) throws(ManifestError) -> String {
    let digest = try string(object, key, at: path)
    guard digest.utf8.count == 64, digest.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
    else { throw .malformed("\(path).\(key): expected 64 lowercase hex digits") }
    return digest
  }

  private static func file(_ object: [String: JSONValue], at path: String) throws(ManifestError) -> File {
    let name = try string(object, "path", at: path)
    guard isSafeRelativePath(name) else {
      throw .malformed("\(path).path: '\(name)' must be a relative path inside the store, without '..'")
    }
    let digest = try sha256(object, "sha256", at: path)
    return File(path: name, bytes: Int64(try integer(object, "bytes", at: path, minimum: 1)), sha256: digest)
  }

  /// Whether `path` stays inside the directory it is relative to: not
  /// empty, not absolute, no `.` or `..` component, no backslash, no NUL,
  /// no control character.
  public static func isSafeRelativePath(_ path: String) -> Bool {
    guard !path.isEmpty, !path.hasPrefix("/"), path.utf8.count <= 1024 else { return false }
    guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" || $0.value == 0x7F }) else { return false }
    return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
  }
}
