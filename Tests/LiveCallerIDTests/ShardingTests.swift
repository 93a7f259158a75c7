import CallDirectoryCompiler
import Foundation
import Sodium
import Testing

@testable import LiveCallerID

/// Keyword → shard assignments computed apart from calldir, with Python's
/// hashlib (`Fixtures/keyword-shards.tsv`): the first eight bytes of the
/// keyword's SHA-256 as a little-endian integer, modulo the shard count.
@Suite struct ShardingTests {
  struct Assignment {
    var keyword: [UInt8]
    var truncated: UInt64
    var shards: [(count: Int, shard: Int)]
  }

  static func assignments() throws -> [Assignment] {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/keyword-shards", withExtension: "tsv"))
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.first)
    let counts = try #require(header.split(separator: ": ").last).split(separator: ",").compactMap { Int($0) }
    #expect(counts.count == 11)
    var result: [Assignment] = []
    for line in lines where !line.hasPrefix("#") && !line.isEmpty {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      try #require(fields.count == 3, "\(line)")
      let shards = fields[2].split(separator: ",").compactMap { Int($0) }
      result.append(Assignment(
        keyword: bytes(hex: String(fields[0])), truncated: try #require(UInt64(fields[1])),
        shards: Array(zip(counts, shards))))
    }
    return result
  }

  @Test func everyKeywordGoesToTheShardPythonComputed() throws {
    let assignments = try Self.assignments()
    #expect(assignments.count == 415)
    for assignment in assignments {
      #expect(KeywordSharding.truncatedHash(assignment.keyword) == assignment.truncated, "\(assignment.keyword)")
      for (count, shard) in assignment.shards {
        #expect(KeywordSharding.shard(of: assignment.keyword, shardCount: count) == shard)
      }
    }
  }

  /// With power-of-two counts, the shard among n is the shard among 2n
  /// modulo n: one call's two lookups reveal no more than one.
  @Test func aSmallerPowerOfTwoCountImpliesTheShard() throws {
    for assignment in try Self.assignments() {
      var count = 4096
      while count > 1 {
        let larger = KeywordSharding.shard(of: assignment.keyword, shardCount: count)
        #expect(KeywordSharding.shard(of: assignment.keyword, shardCount: count / 2) == larger % (count / 2))
        count /= 2
      }
    }
  }

  @Test func libsodiumsSHA256IsTheStandardOne() {
    // FIPS 180-2 test vectors.
    #expect(hex(SodiumSHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(SodiumSHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    var hasher = SodiumSHA256()
    hasher.update(Array("abcdbcdecdefdefgefghfghighijhi".utf8))
    hasher.update(Array("jkijkljklmklmnlmnomnopnopq".utf8))
    #expect(hex(hasher.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func e164KeywordsArePlusAndTheDigits() {
    #expect(Keyword.e164(14_085_551_212) == Array("+14085551212".utf8))
    #expect(Keyword.e164(442_079_460_018) == Array("+442079460018".utf8))
    #expect(Keyword.couldBeNumber(Array("+1".utf8)))
    #expect(Keyword.couldBeNumber(Array("0412".utf8)))
    #expect(!Keyword.couldBeNumber(Array("pad-0-0".utf8)))
    #expect(!Keyword.couldBeNumber([UInt8]()))
  }

  @Test(arguments: [(0, 1), (49_999, 1), (50_000, 1), (99_999, 1), (100_000, 2), (199_999, 2), (200_000, 4), (1_000_000, 16), (100_000_000, 1024)])
  func blockShardCountsArePowersOfTwoOfAbout50000Rows(rows: Int, shards: Int) {
    #expect(UseCaseKind.block.shardCount(forRows: rows) == shards)
  }

  @Test func identityShardsHoldAbout5000Rows() {
    #expect(UseCaseKind.identity.shardCount(forRows: 4_999) == 1)
    #expect(UseCaseKind.identity.shardCount(forRows: 2_000_000) == 256)
    #expect(UseCaseKind.identity.shardCount(forRows: 2_600_000) == 512)
  }
}
