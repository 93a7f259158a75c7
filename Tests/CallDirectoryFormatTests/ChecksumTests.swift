import Testing
@testable import CallDirectoryFormat

@Suite struct CRC32CTests {
  /// RFC 3720 (iSCSI) appendix B.4 test vectors, plus the "123456789" check value.
  @Test func rfc3720Vectors() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
    #expect(UInt32.crcCheck("123456789") == 0xE306_9283)
    #expect(CRC32C.checksum([UInt8]()) == 0)
  }

  @Test(arguments: [1, 3, 7, 8, 15, 16, 17, 64, 1000])
  func streamingMatchesOneShot(split: Int) {
    let data = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    var crc = CRC32C()
    var index = 0
    while index < data.count {
      let end = min(data.count, index + split)
      data[index..<end].withUnsafeBytes { crc.update($0) }
      index = end
    }
    #expect(crc.value == CRC32C.checksum(data))
  }

  /// Bytewise reference implementation agrees on odd lengths and offsets.
  @Test func agreesWithBitwiseReference() {
    func reference(_ bytes: [UInt8]) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      }
      return ~crc
    }
    for length in [0, 1, 5, 9, 23, 31, 33, 100, 257] {
      let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ length) }
      #expect(CRC32C.checksum(data) == reference(data))
    }
  }
}

@Suite struct CRC32CAccelerationTests {
  /// Long enough for the three-stream blocks of the CPU path (3 × 8 KiB),
  /// at every alignment and with every kind of tail.
  @Test(arguments: [0, 1, 7, 24_575, 24_576, 24_577, 49_152 + 13, 300_001])
  func cpuAndTablesAgree(length: Int) {
    var generator = SystemRandomNumberGenerator()
    let data = (0..<(length + 8)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    data.withUnsafeBytes { raw in
      for offset in 0..<8 where offset <= raw.count - length {
        let piece = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
        var crc = CRC32C()
        crc.update(piece)
        let tables = piece.baseAddress.map { ~CRC32C._tableUpdate(0xFFFF_FFFF, $0, length) } ?? 0
        #expect(crc.value == tables)
      }
    }
  }

  @Test func linuxUsesTheCPU() {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      // Every x86-64 and AArch64 machine calldir's servers run on has it.
      #expect(CRC32C.isHardwareAccelerated)
    #endif
  }

  @Test(arguments: [(0, 0), (0, 9), (9, 0), (1, 1), (100, 3), (5000, 70_000), (24_576, 24_576)])
  func combineJoinsPieces(lengths: (Int, Int)) {
    let data = (0..<(lengths.0 + lengths.1)).map { UInt8(truncatingIfNeeded: $0 &* 197 &+ 11) }
    let first = CRC32C.checksum(data[..<lengths.0])
    let second = CRC32C.checksum(data[lengths.0...])
    #expect(CRC32C.combine(first, second, secondLength: lengths.1) == CRC32C.checksum(data))
  }
}

@Suite struct SHA256Tests {
  private func hex(_ bytes: [UInt8]) -> String {
    ContentDigest(bytes: bytes)?.hex ?? "bad length"
  }

  /// FIPS 180-2 appendix B vectors and the empty message.
  @Test func fipsVectors() {
    #expect(hex(SHA256.hash(Array("".utf8)))
      == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex(SHA256.hash(Array("abc".utf8)))
      == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
      == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func millionA() {
    var hasher = SHA256()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { chunk.withUnsafeBytes { hasher.update($0) } }
    #expect(hex(hasher.finalize())
      == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// A copy is a value: feeding one does not change the other.
  @Test func copiesHashOnIndependently() {
    var first = SHA256()
    first.update(Array("ab".utf8))
    var second = first
    second.update(Array("c".utf8))
    first.update(Array("x".utf8))
    #expect(second.finalize() == SHA256.hash(Array("abc".utf8)))
    #expect(first.finalize() == SHA256.hash(Array("abx".utf8)))
  }

  @Test(arguments: [1, 55, 56, 63, 64, 65, 127])
  func streamingMatchesOneShot(split: Int) {
    let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
    var hasher = SHA256()
    var index = 0
    while index < data.count {
      let end = min(data.count, index + split)
      data[index..<end].withUnsafeBytes { hasher.update($0) }
      index = end
    }
    #expect(hasher.finalize() == SHA256.hash(data))
  }
}
