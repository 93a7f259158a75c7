import CalldirSystem
import Foundation

/// The persisted description of one installed extension (`extension.json`).
///
/// Dates are seconds since 1970; optional members are left out when unset.
/// It is replaced atomically (``AtomicFile``) under the device lock.
struct _ExtensionRecord: Equatable {
  var identifier: String
  var isEnabled: Bool
  var launch: ExtensionLaunch
  var settings: ExtensionSettings
  var installDate: Date
  var reloadCount = 0
  var lastReloadDate: Date?
  var lastSuccessfulLoadDate: Date?
  var lastError: _StoredError?
  /// A failure injected by a test into the next reload (a raw error code).
  var injectedFailure: Int?

  /// An error as the record remembers it.
  struct _StoredError: Equatable {
    var domain: String
    var code: Int
    var message: String
  }

  init(identifier: String, isEnabled: Bool, launch: ExtensionLaunch, settings: ExtensionSettings, installDate: Date) {
    self.identifier = identifier
    self.isEnabled = isEnabled
    self.launch = launch
    self.settings = settings
    self.installDate = installDate
  }

  static func load(_ path: String) throws(_DeviceStorageError) -> _ExtensionRecord {
    let fields = try _readRecordFile(path)
    var record = _ExtensionRecord(
      identifier: try fields.member("identifier").string(),
      isEnabled: try fields.member("isEnabled").bool(),
      launch: try ExtensionLaunch(json: try fields.member("launch").object()),
      settings: try ExtensionSettings(json: try fields.member("settings").object()),
      installDate: Date(timeIntervalSince1970: try fields.member("installDate").number()))
    record.reloadCount = try fields.member("reloadCount").integer()
    func date(_ key: String) throws(_DeviceStorageError) -> Date? {
      (try fields.member(key).ifNotNull?.number()).map(Date.init(timeIntervalSince1970:))
    }
    record.lastReloadDate = try date("lastReloadDate")
    record.lastSuccessfulLoadDate = try date("lastSuccessfulLoadDate")
    if let error = try fields.member("lastError").ifNotNull?.object() {
      record.lastError = _StoredError(
        domain: try error.member("domain").string(), code: try error.member("code").integer(),
        message: try error.member("message").string())
    }
    record.injectedFailure = try fields.member("injectedFailure").ifNotNull?.integer()
    return record
  }

  func save(_ path: String) throws(_DeviceStorageError) {
    var members: [(key: String, value: JSONValue)] = [
      ("identifier", .string(identifier)),
      ("isEnabled", .bool(isEnabled)),
      ("launch", launch.json),
      ("settings", settings.json),
      ("installDate", .double(installDate.timeIntervalSince1970)),
      ("reloadCount", .int(Int64(reloadCount))),
    ]
    if let lastReloadDate { members.append(("lastReloadDate", .double(lastReloadDate.timeIntervalSince1970))) }
    if let lastSuccessfulLoadDate {
      members.append(("lastSuccessfulLoadDate", .double(lastSuccessfulLoadDate.timeIntervalSince1970)))
    }
    if let lastError {
      members.append(
        ("lastError", ["domain": .string(lastError.domain), "code": .int(Int64(lastError.code)), "message": .string(lastError.message)]))
    }
    if let injectedFailure { members.append(("injectedFailure", .int(Int64(injectedFailure)))) }
    try _io { () throws(FileError) in
      try AtomicFile.write(Array((JSONValue.object(members).serialized() + "\n").utf8), to: path)
    }
  }
}
