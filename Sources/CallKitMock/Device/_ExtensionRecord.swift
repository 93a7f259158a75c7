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
    let fields = try _JSONFields.read(path)
    var record = _ExtensionRecord(
      identifier: try fields.string("identifier"),
      isEnabled: try fields.bool("isEnabled"),
      launch: try ExtensionLaunch(json: try fields.object("launch")),
      settings: try ExtensionSettings(json: try fields.object("settings")),
      installDate: Date(timeIntervalSince1970: try fields.number("installDate")))
    record.reloadCount = try fields.int("reloadCount")
    record.lastReloadDate = try fields.optionalNumber("lastReloadDate").map(Date.init(timeIntervalSince1970:))
    record.lastSuccessfulLoadDate = try fields.optionalNumber("lastSuccessfulLoadDate").map(
      Date.init(timeIntervalSince1970:))
    if let error = try fields.optionalObject("lastError") {
      record.lastError = _StoredError(
        domain: try error.string("domain"), code: try error.int("code"), message: try error.string("message"))
    }
    record.injectedFailure = try fields.optionalInt("injectedFailure")
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
