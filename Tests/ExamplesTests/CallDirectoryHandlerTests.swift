import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import ExampleCallDirectoryExtension
import Foundation
import Testing

/// The example extension's handler, run by CallKitMock's simulated system
/// on real blobs written by `FullSnapshotWriter` and `DeltaWriter`.
@Suite struct CallDirectoryHandlerTests {
  /// Makes `blobs` (name → writer) the only files of extension `index`'s data directory.
  func place(_ phone: TestPhone, extension index: Int, _ blobs: [(String, (String) throws -> Void)]) throws {
    let data = phone.storage.layout(forExtension: index).dataDirectory
    let manager = FileManager.default
    if manager.fileExists(atPath: data) { try manager.removeItem(atPath: data) }
    try manager.createDirectory(atPath: data, withIntermediateDirectories: true)
    for (name, write) in blobs { try write(data + "/" + name) }
  }

  func full(_ snapshot: Snapshot) -> (String) throws -> Void {
    { path in try writeFullSnapshot(snapshot, to: path) }
  }

  func delta(_ base: Snapshot, _ target: Snapshot) -> (String) throws -> Void {
    { path in try writeDelta(from: base, to: target, path: path) }
  }

  func reload(_ phone: TestPhone, _ index: Int = 1) -> ReloadReport {
    phone.device.reloadExtension(withIdentifier: phone.identifiers[index - 1])
  }

  @Test func aCompleteRequestAddsTheWholeSnapshotAndRemovesNothing() throws {
    let phone = try TestPhone(extensions: 1)
    let v1 = sampleSnapshot(version: 1, count: 10_000, start: 33_612_000_000)
    try place(phone, extension: 1, [("full-000001.cdir", full(v1))])
    let report = reload(phone)
    #expect(report.error == nil)
    #expect(report.wasIncremental == false)
    #expect(report.trace.first == .readIncremental(false))
    #expect(report.statistics.blockingAdds == 10_000 && report.statistics.identificationAdds == 5_000)
    #expect(report.statistics.blockingRemoves == 0 && report.statistics.identificationRemoves == 0)
    #expect(report.statistics.removeAllBlockingCalls == 0 && report.statistics.removeAllIdentificationCalls == 0)
    #expect(try phone.held(1) == v1.entries)
    #expect(try phone.providerState(1) == ProviderState(loaded: try v1.identity()))
  }

  @Test func anIncrementalRequestAppliesTheDeltaRemovesBeforeAdds() throws {
    let phone = try TestPhone(extensions: 1)
    let v1 = sampleSnapshot(version: 1, count: 500, start: 33_612_000_000)
    let v2 = nextVersion(of: v1, addingBlocking: 33_700_000_000)
    try place(phone, extension: 1, [("full-000001.cdir", full(v1))])
    #expect(reload(phone).error == nil)
    // The app keeps the full snapshot next to the delta.
    try place(phone, extension: 1, [("full-000001.cdir", full(v1)), ("delta-000001-000002.cdir", delta(v1, v2))])
    let report = reload(phone)
    #expect(report.error == nil)
    #expect(report.wasIncremental)
    #expect(report.trace.first == .readIncremental(true))
    #expect(report.statistics.blockingRemoves == 3 && report.statistics.blockingAdds == 1)
    #expect(report.statistics.identificationRemoves == 2 && report.statistics.identificationAdds == 1)
    let order = report.trace.dropFirst().dropLast().map { operation -> Int in
      switch operation {
      case .removeBlocking: 0
      case .removeIdentification: 1
      case .addBlocking: 2
      case .addIdentification: 3
      default: 9
      }
    }
    #expect(order == order.sorted() && !order.contains(9))
    #expect(report.trace.last == .complete)
    #expect(try phone.held(1) == v2.entries)
    #expect(try phone.providerState(1) == ProviderState(loaded: try v2.identity()))

    // A later incremental request (the system's own) finds the delta applied
    // and the older full snapshot beside it: nothing to do.
    let again = reload(phone)
    #expect(again.error == nil)
    #expect(again.trace == [.readIncremental(true), .complete])
    #expect(try phone.held(1) == v2.entries)
  }

  @Test func anIncrementalRequestWithoutAFittingDeltaResetsAndAddsTheFullSnapshot() throws {
    let phone = try TestPhone(extensions: 1)
    let v1 = sampleSnapshot(version: 1, count: 300, start: 33_612_000_000)
    let v2 = sampleSnapshot(version: 2, count: 200, start: 44_700_000_000)
    let v3 = sampleSnapshot(version: 3, count: 250, start: 41_000_000_000)
    try place(phone, extension: 1, [("full-000001.cdir", full(v1))])
    #expect(reload(phone).error == nil)
    try place(phone, extension: 1, [("full-000003.cdir", full(v3)), ("delta-000002-000003.cdir", delta(v2, v3))])
    let report = reload(phone)
    #expect(report.error == nil)
    #expect(report.wasIncremental)
    #expect(Array(report.trace.prefix(3)) == [.readIncremental(true), .removeAllBlocking, .removeAllIdentification])
    #expect(report.statistics.blockingAdds == 250 && report.statistics.identificationAdds == 125)
    #expect(report.statistics.blockingRemoves == 0 && report.statistics.identificationRemoves == 0)
    #expect(try phone.held(1) == v3.entries)
    #expect(try phone.providerState(1) == ProviderState(loaded: try v3.identity()))
  }

  @Test func aCorruptBlobCancelsTheRequestAndNothingIsCommitted() throws {
    let phone = try TestPhone(extensions: 1)
    let v1 = sampleSnapshot(version: 1, count: 100, start: 33_612_000_000)
    try place(phone, extension: 1, [("full-000001.cdir", full(v1))])
    #expect(reload(phone).error == nil)
    let stateBefore = try phone.providerState(1)
    // Few enough entries that the trace (ExtensionSettings.traceLimit) keeps the cancel.
    let v2 = sampleSnapshot(version: 2, count: 400, start: 55_000_000_000)
    try place(phone, extension: 1, [
      (
        "full-000002.cdir",
        { path in
          try writeFullSnapshot(v2, to: path)
          var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
          bytes[bytes.count - 1] ^= 0x55  // inside the last frame of the identification section
          try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
      )
    ])
    let report = reload(phone)
    let error = try #require(report.error as? CallDirectoryProviderError)
    guard case .corruptBlob = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(report.trace.last == .cancel(domain: CallDirectoryProviderError.errorDomain, code: 3))
    #expect(!report.trace.contains(.complete))
    #expect(try phone.held(1) == v1.entries)
    #expect(try phone.providerState(1) == stateBefore)
  }

  @Test func eachExtensionServesOnlyItsOwnShard() throws {
    let phone = try TestPhone(extensions: 2)
    let low = sampleSnapshot(version: 4, count: 1_000, start: 33_612_000_000)
    let high = sampleSnapshot(version: 4, count: 700, start: 44_700_000_000)
    try place(phone, extension: 1, [("full-000004.cdir", full(low))])
    try place(phone, extension: 2, [("full-000004.cdir", full(high))])
    #expect(reload(phone, 1).error == nil)
    #expect(reload(phone, 2).error == nil)
    #expect(try phone.held(1) == low.entries)
    #expect(try phone.held(2) == high.entries)
  }

  @Test func withoutItsInfoPlistKeysTheHandlerCancelsBeforeAnyCall() throws {
    let phone = try TestPhone(extensions: 1)
    let v1 = sampleSnapshot(version: 1, count: 10, start: 33_612_000_000)
    try place(phone, extension: 1, [("full-000001.cdir", full(v1))])
    // The system's initializer reads the test runner's bundle, which has no CalldirAppGroup.
    phone.device.registerProvider(forExtensionWithIdentifier: phone.identifiers[0]) { CallDirectoryHandler() }
    let report = reload(phone)
    let error = try #require(report.error as? CallDirectoryHandlerError)
    #expect(error == .missingInfoKey(CallDirectoryHandler.appGroupKey))
    #expect(report.trace == [.cancel(domain: CallDirectoryHandlerError.errorDomain, code: 1)])
    #expect(try phone.held(1) == Snapshot())
  }
}
