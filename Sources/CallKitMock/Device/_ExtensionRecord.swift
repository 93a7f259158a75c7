import Foundation

/// The persisted description of one installed extension (`extension.json`).
struct _ExtensionRecord: Codable, Equatable {
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

  struct _StoredError: Codable, Equatable {
    var domain: String
    var code: Int
    var message: String
  }

  static func load(_ path: String) throws(_SystemError) -> _ExtensionRecord {
    let bytes = try _FileSystem.read(path)
    do {
      return try JSONDecoder.calldirMock.decode(_ExtensionRecord.self, from: Data(bytes))
    } catch {
      throw _SystemError("\(path) is not a valid extension record")
    }
  }

  func save(_ path: String) throws(_SystemError) {
    let data: Data
    do {
      data = try JSONEncoder.calldirMock.encode(self)
    } catch {
      throw _SystemError("cannot encode the record of \(identifier)")
    }
    try _FileSystem.writeAtomically(Array(data), to: path)
  }
}

/// The persisted device-wide state (`device.json`).
struct _DeviceRecord: Codable, Equatable {
  var formatVersion = 1
  var settingsOpenedCount = 0
}

extension JSONEncoder {
  static var calldirMock: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }
}

extension JSONDecoder {
  static var calldirMock: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }
}

/// The domain, code and message of any error, as NSError bridging sees it.
func _identity(of error: any Error) -> _ExtensionRecord._StoredError {
  if let error = error as? CXErrorCodeCallDirectoryManagerError {
    return .init(domain: CXErrorCodeCallDirectoryManagerError.errorDomain, code: error.errorCode, message: error.description)
  }
  if let error = error as? ExtensionCancellationError {
    return .init(domain: error.domain, code: error.code, message: error.message)
  }
  let bridged = error as NSError
  return .init(domain: bridged.domain, code: bridged.code, message: String(describing: error))
}
