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

  init(json fields: _JSONFields) throws(_DeviceStorageError) {
    if fields.has("inProcess") {
      self = .inProcess
    } else if let child = try fields.optionalObject("childProcess") {
      self = .childProcess(executablePath: try child.string("executablePath"), arguments: try child.strings("arguments"))
    } else {
      throw .corrupt(path: fields.path, reason: "unknown extension launch")
    }
  }
}
