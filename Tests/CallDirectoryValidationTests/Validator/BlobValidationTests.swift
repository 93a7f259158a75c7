import CallDirectoryFormat
import Testing
@testable import CallDirectoryValidation

@Suite struct BlobValidationTests {
  @Test func validFullSnapshot() throws {
    let bytes = try fullBlob(
      blocking: [1, 18_005_551_234, 18_005_551_235, 9_223_372_036_854_775_806],
      identification: [(33_612_345_678, 0), (33_612_345_679, 1)],
      labels: ["Spam", "🚫 démarchage"])
    let outcome = try validate(bytes: bytes)
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.format == .fullSnapshot)
    #expect(outcome.summary.lists == [
      ListCount(list: .blocking, entries: 4), ListCount(list: .identification, entries: 2),
    ])
    #expect(outcome.summary.hint == nil)
  }

  @Test func largeFullSnapshotStreams() throws {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 3, labels: ["A", "B"])
    try writer.appendBlocking(33_100_000_000...33_100_299_999)
    for index in 0..<50_000 { try writer.appendBlocking(44_000_000_000 + Int64(index) * 37) }
    for index in 0..<20_000 { try writer.appendIdentification(55_000_000_000 + Int64(index) * 3, labelID: UInt32(index % 2)) }
    try writer.finish()
    let outcome = try validate(bytes: sink.bytes)
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.entries == 370_000)
  }

  @Test func emptyAndControlLabelsAreReportedPerEntry() throws {
    let bytes = try fullBlob(
      blocking: [5],
      identification: [(10, 1), (11, 0), (12, 2), (13, 0), (14, 1)],
      labels: ["", "ok", "tab\there"])
    let outcome = try validate(bytes: bytes)
    #expect(outcome.kinds == [.emptyLabel, .controlCharacter, .emptyLabel])
    #expect(outcome.violations.map(\.location) == [
      .entry(section: .identification, index: 2),
      .entry(section: .identification, index: 3),
      .entry(section: .identification, index: 4),
    ])
    #expect(outcome.violations.map(\.number) == [11, 12, 13])
    #expect(outcome.violations.allSatisfy { $0.line == nil && $0.list == .identification })
    #expect(outcome.violations.first?.message == "empty label for 11")
    #expect(outcome.summary.errorCount == 2)
    #expect(outcome.summary.warningCount == 1)
  }

  @Test func validDelta() throws {
    let bytes = try deltaBlob(
      blockingRemoves: [3, 7], blockingAdds: [1, 2, 100], identificationRemoves: [50],
      identificationAdds: [(50, 0), (60, 1)], labels: ["Bank", "Spam"])
    let outcome = try validate(bytes: bytes)
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.format == .delta)
    #expect(outcome.summary.lists == [
      ListCount(list: .blockingRemoves, entries: 2), ListCount(list: .blockingAdds, entries: 3),
      ListCount(list: .identificationRemoves, entries: 1), ListCount(list: .identificationAdds, entries: 2),
    ])
  }

  @Test func deltaWithEmptyLabel() throws {
    let bytes = try deltaBlob(
      blockingRemoves: [], blockingAdds: [], identificationRemoves: [],
      identificationAdds: [(50, 1), (60, 0)], labels: ["", "Spam"])
    let outcome = try validate(bytes: bytes)
    #expect(outcome.kinds == [.emptyLabel])
    #expect(outcome.violations.first?.location == .entry(section: .identificationAdds, index: 2))
  }

  @Test func emptyBlob() throws {
    let outcome = try validate(bytes: try fullBlob(blocking: [], identification: [], labels: []))
    #expect(outcome.summary.isValid)
    #expect(outcome.summary.entries == 0)
  }

  @Test func blobFileIsDetectedByMagic() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("v1.txt", try fullBlob(blocking: [1, 2], identification: [(3, 0)], labels: [""]))
    let outcome = try validate(path: path)
    #expect(outcome.summary.format == .fullSnapshot)
    #expect(outcome.kinds == [.emptyLabel])
  }

  // MARK: Damaged blobs

  static func sample() throws -> [UInt8] {
    try fullBlob(
      blocking: [18_005_551_234, 18_005_551_235, 18_005_551_240],
      identification: [(33_612_345_678, 0)], labels: ["Spam"])
  }

  @Test func everyTruncationIsAnError() throws {
    let bytes = try Self.sample()
    for length in 4..<bytes.count {
      #expect(throws: ValidationError.self, "length \(length)") {
        _ = try validate(bytes: Array(bytes[..<length]))
      }
    }
  }

  @Test func truncatedBlobNamesTheSection() throws {
    let bytes = try Self.sample()
    do {
      _ = try validate(bytes: Array(bytes.dropLast(3)))
      Issue.record("expected an error")
    } catch let error as ValidationError {
      guard case .invalidBlob(_, .truncated) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.description.hasPrefix("input: blob truncated in"))
    }
  }

  @Test func everySingleByteFlipIsAnError() throws {
    let bytes = try Self.sample()
    for index in 4..<bytes.count {
      var damaged = bytes
      damaged[index] ^= 0x5A
      #expect(throws: ValidationError.self, "byte \(index)") { _ = try validate(bytes: damaged) }
    }
  }

  @Test func trailingGarbageIsAnError() throws {
    #expect(throws: ValidationError.self) { _ = try validate(bytes: try Self.sample() + [0]) }
  }

  @Test func magicAloneIsAnError() throws {
    #expect(throws: ValidationError.self) { _ = try validate(bytes: Array("CDIR".utf8)) }
    #expect(throws: ValidationError.self) { _ = try validate(bytes: Array("CDIR\n1\n2\n".utf8)) }
  }

  @Test func randomJunkAfterMagicIsAnInvalidBlob() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let sample = try Self.sample()
    for round in 0..<300 {
      var bytes = sample
      for _ in 0..<(1 + round % 8) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let index = 4 + Int((state >> 33) % UInt64(bytes.count - 4))
        bytes[index] = UInt8(truncatingIfNeeded: state >> 17)
      }
      // Every byte after the magic is under a checksum: changed bytes are
      // an invalid blob (a BlobError), unchanged ones a clean result.
      if bytes == sample {
        #expect(try validate(bytes: bytes).violations.isEmpty, "round \(round)")
        continue
      }
      do {
        _ = try validate(bytes: bytes)
        Issue.record("round \(round): a damaged blob was accepted")
      } catch let error as ValidationError {
        guard case .invalidBlob = error else {
          Issue.record("round \(round): \(error) is not an invalid blob")
          continue
        }
      }
    }
  }
}
