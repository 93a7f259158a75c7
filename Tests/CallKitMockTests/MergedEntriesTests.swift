import Foundation
import Testing

@testable import CallKitMock

/// Several extensions' stores merged into one ascending stream.
@Suite struct MergedEntriesTests {
  @Test func storesMergeAscendingWithTiesInIdentifierOrder() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    // Enough entries for several prefetched chunks per store.
    let lists: [String: (blocking: [Int64], identification: [(Int64, String)])] = [
      "a.ext": (Array(stride(from: 10, to: 30_000, by: 2)), [(5, "a5"), (7, "a7"), (11, "a11")]),
      "b.ext": (Array(stride(from: 11, to: 30_001, by: 2)) + [40_000], [(7, "b7"), (9, "b9")]),
      "c.ext": ([], []),
    ]
    for (identifier, list) in lists {
      try device.installExtension(withIdentifier: identifier)
      guard !list.blocking.isEmpty else { continue }
      let blocking = list.blocking
      let identification = list.identification.map { IdentificationEntry(number: $0.0, label: $0.1) }
      device.registerProvider(forExtensionWithIdentifier: identifier) {
        ClosureProvider { context in
          for number in blocking { context.addBlockingEntry(withNextSequentialPhoneNumber: number) }
          for entry in identification {
            context.addIdentificationEntry(withNextSequentialPhoneNumber: entry.number, label: entry.label)
          }
          context.completeRequest()
        }
      }
      #expect(device.reloadExtension(withIdentifier: identifier).error == nil)
    }

    var blocking: [Int64] = []
    var identification: [IdentificationEntry] = []
    try device.forEachMergedEntry(
      inExtensionsWithIdentifiers: ["b.ext", "a.ext", "c.ext"], blocking: { blocking.append($0) },
      identification: { identification.append($0) })
    #expect(blocking == (lists["a.ext"]!.blocking + lists["b.ext"]!.blocking).sorted())
    #expect(identification.map(\.label) == ["a5", "b7", "a7", "b9", "a11"])

    var seen = 0
    try device.forEachMergedEntry(
      inExtensionsWithIdentifiers: ["a.ext", "b.ext"], while: { seen < 5 }, blocking: { _ in seen += 1 },
      identification: { _ in Issue.record("the merge went on after it was stopped") })
    #expect(seen == 5)
    #expect(throws: SimulatedDeviceError.noSuchExtension("z.ext")) {
      try device.forEachMergedEntry(inExtensionsWithIdentifiers: ["z.ext"], blocking: { _ in }, identification: { _ in })
    }
  }

  @Test func aCorruptStoreStopsTheMergeWithAStorageError() throws {
    let fixture = try Fixture()
    #expect(fixture.loadComplete(blocking: Array(1...10_000)).error == nil)
    let url = try fixture.device.storeFileURL(forExtensionWithIdentifier: Fixture.identifier)
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] ^= 0x40
    try bytes.write(to: url)
    var count = 0
    #expect(throws: SimulatedDeviceError.self) {
      try fixture.device.forEachMergedEntry(
        inExtensionsWithIdentifiers: [Fixture.identifier], blocking: { _ in count += 1 }, identification: { _ in })
    }
  }
}
