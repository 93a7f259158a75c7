import CalldirSystem

/// The members of a JSON object that a device file holds; a missing or
/// mistyped member is a corruption of that file.
struct _JSONFields {
  let path: String
  private let members: JSONValue

  /// Wraps an object.
  init(_ value: JSONValue, path: String) throws(_DeviceStorageError) {
    guard value.objectValue != nil else { throw .corrupt(path: path, reason: "it is not a json object") }
    self.path = path
    members = value
  }

  /// Reads and parses the file at `path`.
  static func read(_ path: String) throws(_DeviceStorageError) -> _JSONFields {
    let bytes = try _io { () throws(FileError) in try FileSystem.contents(of: path, limit: 1 << 20, requiringRegularFile: true) }
    let value: JSONValue
    do throws(JSONParseError) {
      value = try JSONParser.parse(bytes)
    } catch {
      throw .corrupt(path: path, reason: error.description)
    }
    return try _JSONFields(value, path: path)
  }

  func string(_ key: String) throws(_DeviceStorageError) -> String {
    guard let value = members[key]?.stringValue else { throw missing(key, "a string") }
    return value
  }

  func bool(_ key: String) throws(_DeviceStorageError) -> Bool {
    guard let value = members[key]?.boolValue else { throw missing(key, "a boolean") }
    return value
  }

  func int(_ key: String) throws(_DeviceStorageError) -> Int {
    guard let value = members[key]?.intValue, let int = Int(exactly: value) else { throw missing(key, "an integer") }
    return int
  }

  /// An integer, or `nil` when the member is absent or `null`.
  func optionalInt(_ key: String) throws(_DeviceStorageError) -> Int? {
    guard let value = members[key], !value.isNull else { return nil }
    return try int(key)
  }

  /// A number (integer or not).
  func number(_ key: String) throws(_DeviceStorageError) -> Double {
    guard let value = members[key]?.doubleValue else { throw missing(key, "a number") }
    return value
  }

  /// A number, or `nil` when the member is absent or `null`.
  func optionalNumber(_ key: String) throws(_DeviceStorageError) -> Double? {
    guard let value = members[key], !value.isNull else { return nil }
    return try number(key)
  }

  func strings(_ key: String) throws(_DeviceStorageError) -> [String] {
    guard let elements = members[key]?.arrayValue else { throw missing(key, "an array of strings") }
    var strings: [String] = []
    for element in elements {
      guard let string = element.stringValue else { throw missing(key, "an array of strings") }
      strings.append(string)
    }
    return strings
  }

  func object(_ key: String) throws(_DeviceStorageError) -> _JSONFields {
    guard let value = members[key], value.objectValue != nil else { throw missing(key, "an object") }
    return try _JSONFields(value, path: path)
  }

  /// An object, or `nil` when the member is absent or `null`.
  func optionalObject(_ key: String) throws(_DeviceStorageError) -> _JSONFields? {
    guard let value = members[key], !value.isNull else { return nil }
    return try object(key)
  }

  /// Whether the object has the member `key`.
  func has(_ key: String) -> Bool {
    members[key] != nil
  }

  private func missing(_ key: String, _ kind: String) -> _DeviceStorageError {
    .corrupt(path: path, reason: "'\(key)' must be \(kind)")
  }
}
