import CalldirSystem

/// A value of a device file, at its path in the file; a missing or
/// mistyped value is a corruption of that file
/// (`extension.json is corrupt: launch.childProcess.arguments[1]: expected a string`).
typealias _RecordValue = LocatedJSON<_DeviceStorageError>

/// Reads and parses the device file at `path`: its root object.
func _readRecordFile(_ path: String) throws(_DeviceStorageError) -> _RecordValue {
  let bytes = try _io { () throws(FileError) in try FileSystem.contents(of: path, limit: 1 << 20, requiringRegularFile: true) }
  let value: JSONValue
  do throws(JSONParseError) {
    value = try JSONParser.parse(bytes)
  } catch {
    throw .corrupt(path: path, reason: error.description)
  }
  return try LocatedJSON(value, path: "") { _DeviceStorageError.corrupt(path: path, reason: $0.description) }.object()
}
