import CalldirSystem

/// The persisted device-wide state (`device.json`), replaced atomically
/// under the device lock.
struct _DeviceRecord: Equatable {
  var formatVersion = 1
  var settingsOpenedCount = 0

  static func load(_ path: String) throws(_DeviceStorageError) -> _DeviceRecord {
    let record = try _readRecordFile(path)
    return _DeviceRecord(
      formatVersion: try record.member("formatVersion").integer(),
      settingsOpenedCount: try record.member("settingsOpenedCount").integer())
  }

  func save(_ path: String) throws(_DeviceStorageError) {
    let json: JSONValue = [
      "formatVersion": .int(Int64(formatVersion)), "settingsOpenedCount": .int(Int64(settingsOpenedCount)),
    ]
    try _io { () throws(FileError) in try AtomicFile.write(Array((json.serialized() + "\n").utf8), to: path) }
  }
}
