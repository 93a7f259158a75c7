import CalldirSystem
import Foundation
import Testing

@testable import CallKitMock

/// The device's files: records, staging, and what happens when they are
/// unreadable.
@Suite struct StorageTests {
  @Test func recordsWrittenByEarlierVersionsStillLoad() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    let extensionPath = device.extensionPath("legacy.ext")
    try FileManager.default.createDirectory(atPath: extensionPath + "/container", withIntermediateDirectories: true)
    // What Foundation's JSONEncoder (pretty-printed, sorted keys, dates as
    // seconds since 1970) wrote.
    let legacy = """
      {
        "identifier" : "legacy.ext",
        "installDate" : 1732900000.5,
        "isEnabled" : false,
        "lastError" : {
          "code" : 5,
          "domain" : "com.apple.CallKit.error.calldirectorymanager",
          "message" : "maximumEntriesExceeded (5)"
        },
        "lastReloadDate" : 1732900100,
        "launch" : {
          "childProcess" : {
            "arguments" : [
              "device",
              "_extension"
            ],
            "executablePath" : "/usr/local/bin/calldir"
          }
        },
        "reloadCount" : 3,
        "settings" : {
          "incrementalReAddPolicy" : "replace",
          "maximumEntryCount" : 10,
          "memoryBudgetBytes" : 33554432,
          "requestTimeout" : 120,
          "traceLimit" : 1000
        }
      }
      """
    try Data(legacy.utf8).write(to: URL(fileURLWithPath: extensionPath + "/extension.json"))
    let status = try device.status(forExtensionWithIdentifier: "legacy.ext")
    #expect(!status.isEnabled && status.reloadCount == 3 && status.lastError?.code == 5)
    #expect(status.launch == .childProcess(executablePath: "/usr/local/bin/calldir", arguments: ["device", "_extension"]))
    #expect(status.settings == ExtensionSettings(maximumEntryCount: 10, incrementalReAddPolicy: .replace))
    #expect(status.lastReloadDate == Date(timeIntervalSince1970: 1_732_900_100))
    #expect(status.lastSuccessfulLoadDate == nil && !status.hasStore)

    try device.setEnabled(true, forExtensionWithIdentifier: "legacy.ext")
    let rewritten = try device.status(forExtensionWithIdentifier: "legacy.ext")
    #expect(rewritten.isEnabled && rewritten.reloadCount == 3 && rewritten.settings == status.settings)
  }

  @Test func anUnreadableRecordIsAStorageErrorNotAMissingExtension() throws {
    let fixture = try Fixture()
    let record = fixture.device.recordPath(Fixture.identifier)
    try Data("{\"identifier\": 1".utf8).write(to: URL(fileURLWithPath: record))
    let error = #expect(throws: SimulatedDeviceError.self) {
      try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier)
    }
    guard case .storage(let message)? = error else {
      Issue.record("expected a storage error, got \(String(describing: error))")
      return
    }
    #expect(message.contains("extension.json is corrupt: 1:17: unexpected end of input"), "\(message)")
    let report = fixture.device.reloadExtension(withIdentifier: Fixture.identifier)
    #expect(code(report) == .unknown)
    #expect(report.deviceError == error)
  }

  /// An extension record as the device writes it.
  static let validRecord =
    #"{"identifier":"e","isEnabled":true,"launch":{"childProcess":{"executablePath":"/bin/x","arguments":["a","b"]}},"#
    + #""settings":{"maximumEntryCount":10,"memoryBudgetBytes":1024,"requestTimeout":120,"#
    + #""incrementalReAddPolicy":"reject","traceLimit":5},"installDate":1.5,"reloadCount":0,"#
    + #""lastError":{"domain":"d","code":1,"message":"m"}}"#

  /// ``validRecord`` with `original` replaced by `value`.
  static func record(_ original: String, with value: String) -> String {
    validRecord.replacingOccurrences(of: original, with: value)
  }

  @Test func aMalformedRecordSaysWhereAndWhat() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("extension.json")
    let cases: [(String, String, String)] = [
      (#""identifier":"e""#, #""identifier":1"#, "identifier: expected a string"),
      (#""isEnabled":true"#, #""isEnabled":"yes""#, "isEnabled: expected a boolean"),
      (#""installDate":1.5"#, #""installDate":"x""#, "installDate: expected a number"),
      (#""reloadCount":0"#, #""reloadCount":0.5"#, "reloadCount: expected an integer"),
      (#""reloadCount":0"#, #""reloadCount":0,"lastReloadDate":true"#, "lastReloadDate: expected a number"),
      (#""reloadCount":0"#, #""reloadCount":0,"injectedFailure":"x""#, "injectedFailure: expected an integer"),
      (#""code":1"#, #""code":"1""#, "lastError.code: expected an integer"),
      (#""lastError":{"#, #""lastError":[],"x":{"#, "lastError: expected an object"),
      (#""arguments":["a","b"]"#, #""arguments":["a",2]"#, "launch.childProcess.arguments[1]: expected a string"),
      (#""arguments":["a","b"]"#, #""arguments":"a""#, "launch.childProcess.arguments: expected an array of strings"),
      (#""executablePath":"/bin/x","#, "", "launch.childProcess.executablePath: expected a string"),
      (#"{"childProcess":{"executablePath":"/bin/x","arguments":["a","b"]}}"#, "{}", "launch: expected an object with inProcess or childProcess"),
      (#""launch":{"#, #""launch":7,"x":{"#, "launch: expected an object"),
      (#""traceLimit":5"#, #""traceLimit":null"#, "settings.traceLimit: expected an integer"),
      (#""reject""#, #""skip""#, "settings.incrementalReAddPolicy: expected reject or replace, got 'skip'"),
    ]
    for (original, replacement, reason) in cases {
      let text = Self.record(original, with: replacement)
      #expect(Self.validRecord.contains(original), "\(original) is in the record")
      _ = try directory.write("extension.json", text)
      #expect(throws: _DeviceStorageError.self, "\(text)") { try _ExtensionRecord.load(path) }
      do {
        _ = try _ExtensionRecord.load(path)
      } catch {
        #expect(error.description == "\(path) is corrupt: \(reason)", "\(text)")
      }
    }
    _ = try directory.write("extension.json", Self.record(#""reloadCount":0"#, with: #""reloadCount":2,"lastReloadDate":null,"injectedFailure":null"#))
    let record = try _ExtensionRecord.load(path)
    #expect(record.reloadCount == 2 && record.lastReloadDate == nil && record.injectedFailure == nil)
    #expect(record.launch == .childProcess(executablePath: "/bin/x", arguments: ["a", "b"]))
    #expect(record.lastError == _ExtensionRecord._StoredError(domain: "d", code: 1, message: "m"))

    let device = directory.path("device.json")
    _ = try directory.write("device.json", #"{"formatVersion":1}"#)
    do {
      _ = try _DeviceRecord.load(device)
      Issue.record("a device record without settingsOpenedCount loaded")
    } catch {
      #expect(error.description == "\(device) is corrupt: settingsOpenedCount: expected an integer")
    }
    _ = try directory.write("device.json", "[1]")
    do {
      _ = try _DeviceRecord.load(device)
      Issue.record("an array loaded as a device record")
    } catch {
      #expect(error.description == "\(device) is corrupt: (root): expected an object")
    }
  }

  @Test func leftoversOfACrashedRequestAreSweptAndNothingIsLeftBehind() throws {
    let fixture = try Fixture()
    let extensionPath = fixture.device.extensionPath(Fixture.identifier)
    let manager = FileManager.default
    for leftover in [".staging-99999-1", "staging"] {
      try manager.createDirectory(atPath: extensionPath + "/" + leftover + "/x", withIntermediateDirectories: true)
    }
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: extensionPath + "/.store.bin.tmp-99999-4"))
    #expect(fixture.loadComplete(blocking: [1, 2], identification: [(3, "three")]).error == nil)
    let names = try manager.contentsOfDirectory(atPath: extensionPath).sorted()
    #expect(names == ["container", "extension.json", "store.bin"])
    #expect(fixture.identification == [IdentificationEntry(number: 3, label: "three")])
  }

  @Test func aFailedRequestReportsThePreviousCounts() throws {
    let fixture = try Fixture()
    #expect(fixture.loadComplete(blocking: [1, 2, 3]).error == nil)
    let report = fixture.loadComplete(blocking: [9, 8])
    #expect(code(report) == .entriesOutOfOrder)
    #expect(report.blockingEntryCount == 3 && report.deviceError == nil)
  }

  /// A disk that stays full from any fsync of a request on: the reported
  /// outcome is always what the store holds. A failed request leaves the
  /// old entries; when the store's directory cannot be synced after the
  /// rename and the old store cannot be put back either, the request is
  /// reported committed (with its durability error), never failed over
  /// the new entries.
  @Test func aDiskThatStaysFullNeverReportsAFailureOverTheNewEntries() throws {
    var sawNotDurable = false
    var sawFailed = false
    for persists in [true, false] {
      for occurrence in 1...12 {
        let fixture = try Fixture()
        #expect(fixture.loadComplete(blocking: [1, 2, 3], identification: [(7, "seven")]).error == nil)
        FaultInjection.install([.init(call: .fsync, occurrence: occurrence, fault: .fail(.ioError), persists: persists)])
        let report = fixture.loadComplete(blocking: [4, 5], identification: [(8, "eight")])
        FaultInjection.reset()
        let context = "fsync:\(occurrence)\(persists ? "+" : ""): \(String(describing: report.error))"
        if report.error == nil {
          #expect(fixture.blocking == [4, 5] && report.blockingEntryCount == 2, "\(context)")
          #expect(fixture.identification == [IdentificationEntry(number: 8, label: "eight")], "\(context)")
          if let durability = report.durabilityError {
            sawNotDurable = true
            #expect(persists, "a single failed sync is undone: \(context)")
            #expect(durability.description.contains("not durable") && durability.description.contains("input/output error"))
            let status = try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier)
            #expect(status.lastError == nil && status.lastSuccessfulLoadDate != nil, "\(context)")
          }
        } else {
          sawFailed = true
          #expect(code(report) == .unknown && report.deviceError != nil, "\(context)")
          #expect(fixture.blocking == [1, 2, 3] && report.blockingEntryCount == 3, "\(context)")
          #expect(fixture.identification == [IdentificationEntry(number: 7, label: "seven")], "\(context)")
        }
      }
    }
    #expect(sawNotDurable && sawFailed)
  }
}
