import CalldirSystem

extension ExtensionLaunch {
  /// As an extension record stores it: `{"inProcess":{}}` or
  /// `{"childProcess":{"executablePath":…,"arguments":[…]}}`.
  var json: JSONValue {
    switch self {
    case .inProcess:
      ["inProcess": [:]]
    case .childProcess(let executablePath, let arguments):
      ["childProcess": ["executablePath": .string(executablePath), "arguments": .array(arguments.map { .string($0) })]]
    }
  }

  init(json fields: _RecordValue) throws(_DeviceStorageError) {
    if fields.member("inProcess").isPresent {
      self = .inProcess
    } else if let child = try fields.member("childProcess").ifNotNull?.object() {
      self = .childProcess(
        executablePath: try child.member("executablePath").string(), arguments: try child.member("arguments").strings())
    } else {
      throw fields.failure(expected: "an object with inProcess or childProcess")
    }
  }
}
