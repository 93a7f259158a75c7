import Testing
@testable import CallDirectoryFormat

/// Pins the exact bytes the writers produce for fixed datasets, so speed
/// work on the encoder cannot silently change the format's output.
@Suite struct ByteStabilityTests {
  /// A deterministic mix of shapes: scattered numbers (Elias–Fano), dense
  /// clusters (bitmaps), long and short consecutive stretches (runs and
  /// their borders), and wide jumps (gap cuts).
  static func dataset() -> [Int64] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var numbers: [Int64] = []
    var value: Int64 = 1_000_000
    for index in 0..<300_000 {
      switch next() % 10 {
      case 0: value += Int64(next() % 3) + 1
      case 1: value += Int64(next() % 40) + 1
      case 2: value += Int64(next() % 1_000_000) + 1
      default: value += Int64(next() % 3000) + 1
      }
      numbers.append(value)
      if index % 5000 == 0 {
        let stretch = Int64(next() % 200) + 1
        for k in 1...stretch { numbers.append(value + k) }
        value += stretch
      }
      if index % 77_777 == 0 { value += 50_000_000_000 }
    }
    return numbers
  }

  static func sha256Hex(_ bytes: [UInt8]) -> String {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }

  @Test func fullSnapshotBytesArePinned() throws {
    let numbers = Self.dataset()
    let identification = numbers.enumerated().filter { $0.offset % 7 == 0 }
      .map { (number: $0.element, label: UInt32(($0.offset / 7) % 3)) }
    let perNumber = try encodeFull(
      blocking: numbers, identification: identification, labels: ["a", "b", "🚫 c"], version: 7)
    let withRanges = try encodeFull(
      blocking: numbers, identification: identification, labels: ["a", "b", "🚫 c"], version: 7,
      useRanges: true)
    #expect(perNumber == withRanges)
    #expect(Self.sha256Hex(perNumber) == "605c423d8bc3ad075176080dfb848d3e656dc97bb1bd04fb79eea2811812a3aa")
    #expect(perNumber.count == 784_892)
    // The blocks are coded exactly as format version 1 coded them: written
    // in version 1's layout, these are the bytes that version 1 pinned,
    // 168 fewer (the 64-byte dataset identifier and 8 bytes of base in each
    // of the 13 frames).
    let versionOne = try BlobSurgery.downgradeToVersion1(perNumber)
    #expect(Self.sha256Hex(versionOne) == "81aacdc573c68c1c527d3d5668abccb1dff1bd8101e8707fae8fab89d6b20795")
    #expect(versionOne.count == 784_724)
  }

  @Test func bulkAppendMatchesPerNumberAppend() throws {
    let numbers = Self.dataset()
    let expected = try encodeFull(blocking: numbers, version: 3)
    #expect(Self.sha256Hex(expected) == "c9a43fa5e3a10da393a1638aa085f792ef0975fcc22593db246cf89e2a5cf2ea")
    #expect(
      Self.sha256Hex(try BlobSurgery.downgradeToVersion1(expected))
        == "f64d3314d4fa496e907225637898c2a7ddcf45a749b42e094f622959fe5899d5")
    for chunk in [1, 7, 64, 1000, 100_000, numbers.count] {
      let sink = MemoryBlobSink()
      let writer = try FullSnapshotWriter(sink: sink, version: 3, labels: [])
      var start = 0
      while start < numbers.count {
        let end = min(start + chunk, numbers.count)
        try numbers[start..<end].withUnsafeBufferPointer { try writer.appendBlocking(contentsOf: $0) }
        start = end
      }
      try writer.finish()
      #expect(sink.bytes == expected, "chunk \(chunk)")
    }
  }
}
