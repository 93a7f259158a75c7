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
    let parsed: JSONValue
    do {
      parsed = try JSONParser(maxDepth: 16).parse(bytes)
    } catch {
      throw .malformed("not json: line \(error.line), column \(error.column): \(error.reasonText)")
    }
    let object = try LocatedJSON(parsed, path: "manifest") { ManifestError.malformed($0.description) }.object()
    dataset = try object.member("dataset").string()
    guard dataset.utf8.count <= BlobLimits.maxDatasetBytes else {
      throw .malformed("manifest.dataset: longer than \(BlobLimits.maxDatasetBytes) bytes")
    }
    version = try object.member("version").integer(minimum: 1)
    published = try Self.time(object.member("published"))
    fullEvery = try object.member("fullEvery").integer(minimum: 1)
    expires = try object.member("expires").ifPresent.map(Self.time)
    let items = try object.member("extensions").array()
    guard !items.isEmpty else { throw object.member("extensions").failure(expected: "at least one extension") }
    var extensions: [Extension] = []
    for value in items {
      let item = try value.object()
      extensions.append(try Self.readExtension(item, after: extensions.last))
    }
    self.extensions = extensions
  }

  /// One extension, which follows `previous` (index and bounds).
  private static func readExtension(_ item: Field, after previous: Extension?) throws(ManifestError) -> Extension {
    let counts = try item.member("counts").object()
    var deltas: [Delta] = []
    for delta in try item.member("deltas").objects() {
      let adds = try delta.member("adds").ifPresent?.integer(minimum: 0)
      let removes = try delta.member("removes").ifPresent?.integer(minimum: 0)
      guard (adds == nil) == (removes == nil) else {
        throw .malformed("\(delta.path): 'adds' and 'removes' go together, it has only '\(adds == nil ? "removes" : "adds")'")
      }
      deltas.append(Delta(
        from: try delta.member("from").integer(minimum: 1), file: try file(delta), adds: adds, removes: removes))
    }
    let index = try item.member("index").integer(minimum: 1)
    let lower = Int64(try item.member("lower").integer(minimum: 1))
    let upper = Int64(try item.member("upper").integer(minimum: 1))
    guard lower <= upper else { throw .malformed("\(item.path): lower \(lower) is above upper \(upper)") }
    if let previous {
      guard index == previous.index + 1 else {
        throw item.member("index").failure(expected: "\(previous.index + 1), got \(index)")
      }
      guard lower > previous.upper else { throw .malformed("\(item.path): its numbers overlap extension \(previous.index)'s") }
    } else if index != 1 {
      throw .malformed("\(item.path).index: the first extension is 1, got \(index)")
    }
    return Extension(
      index: index, lower: lower, upper: upper,
      counts: Counts(
        blocking: try counts.member("blocking").integer(minimum: 0),
        identification: try counts.member("identification").integer(minimum: 0)),
      digest: try item.member("digest").ifPresent?.sha256(),
      full: try file(try item.member("full").object()),
      deltas: deltas)
  }

  /// A value of the manifest, at its path.
  private typealias Field = LocatedJSON<ManifestError>

  /// An ISO 8601 UTC time as calldir writes it: `2026-12-08T00:00:00Z`
  /// (``UTCTime``'s grammar, the one the build writes with).
  private static func time(_ field: Field) throws(ManifestError) -> String {
    guard let text = field.value?.stringValue, UTCTime.parseTimestamp(text) != nil else {
      throw field.failure(expected: "an ISO 8601 UTC time such as 2026-12-08T00:00:00Z")
    }
    return text
  }

  private static func file(_ object: Field) throws(ManifestError) -> File {
    let name = try object.member("path").string()
    guard isSafeRelativePath(name) else {
      throw .malformed("\(object.path).path: '\(name)' must be a relative path inside the store, without '..'")
    }
    let digest = try object.member("sha256").sha256()
    return File(path: name, bytes: Int64(try object.member("bytes").integer(minimum: 1)), sha256: digest)
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
