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
