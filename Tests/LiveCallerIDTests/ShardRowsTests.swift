import CallDirectoryCompiler
import Testing

@testable import LiveCallerID

@Suite struct ShardRowsTests {
  static func national(_ number: Int64, _ digits: String) -> ScratchRow {
    ScratchRow(number: number, form: .national, nationalDigits: Array(digits.utf8))
  }

  @Test func rowsAreSortedByKeywordBytesAndSharedNationalKeywordsLeftOut() throws {
    // +33 4 12 34 56 78 and +61 412 345 678 are both 0412345678 nationally.
    let scratch = [
      ScratchRow(number: 61_412_345_678, form: .e164),
      Self.national(61_412_345_678, "0412345678"),
      ScratchRow(number: 33_412_345_678, form: .e164),
      Self.national(33_412_345_678, "0412345678"),
      ScratchRow(number: 442_079_460_018, form: .e164),
      Self.national(442_079_460_018, "02079460018"),
    ]
    let rows = try ShardRows(useCase: .block, shard: 0, shardCount: 1, scratch: scratch)
    #expect(rows.e164Rows == 3)
    #expect(rows.nationalRows == 1)
    #expect(rows.sharedNational == 2)
    #expect(rows.padding == nil)
    let keywords = (0..<rows.rows.count).map { String(decoding: rows.keyword($0), as: UTF8.self) }
    #expect(keywords == ["+33412345678", "+442079460018", "+61412345678", "02079460018"])
    var bytes: [UInt8] = []
    let encoded = try rows.encode(value: { _ in [0x01] }, paddingValue: [0x00]) { bytes += $0 }
    #expect(encoded.bytes == bytes.count)
    #expect(encoded.load.rows == 4)
    #expect(encoded.load.bytes == 4 * 11)
    let decoded = try KeywordDatabase.decode(bytes)
    #expect(decoded.map { String(decoding: $0.keyword, as: UTF8.self) } == keywords)
    #expect(decoded.allSatisfy { $0.value == [0x01] })
  }

  @Test func theSameRowsInAnyOrderGiveTheSameBytes() throws {
    var scratch: [ScratchRow] = (0..<500).map { ScratchRow(number: 14_085_550_000 + Int64($0 * 7), form: .e164) }
    let first = try ShardRows(useCase: .block, shard: 0, shardCount: 1, scratch: scratch)
    scratch.reverse()
    scratch.swapAt(3, 400)
    let second = try ShardRows(useCase: .block, shard: 0, shardCount: 1, scratch: scratch)
    let a = try first.encode(value: { _ in [1] }, paddingValue: [0]) { _ in }
    let b = try second.encode(value: { _ in [1] }, paddingValue: [0]) { _ in }
    #expect(a.sha256 == b.sha256)
  }

  @Test func anEmptyShardGetsOnePaddingRowThatHashesIntoIt() throws {
    for count in [1, 2, 8, 64] {
      for shard in 0..<count {
        let rows = try ShardRows(useCase: .identity, shard: shard, shardCount: count, scratch: [])
        let padding = try #require(rows.padding)
        #expect(!Keyword.couldBeNumber(padding))
        #expect(KeywordSharding.shard(of: padding, shardCount: count) == shard)
        #expect(rows.rowCount == 1)
        var bytes: [UInt8] = []
        _ = try rows.encode(value: { _ in [] }, paddingValue: [0x18, 0x01]) { bytes += $0 }
        #expect(try KeywordDatabase.decode(bytes) == [KeywordDatabase.Row(keyword: padding, value: [0x18, 0x01])])
      }
    }
    // Only national rows, all shared: the shard is padded.
    let shared = try ShardRows(
      useCase: .block, shard: 0, shardCount: 1,
      scratch: [Self.national(1, "0412345678"), Self.national(2, "0412345678")])
    #expect(shared.rows.isEmpty)
    #expect(shared.padding != nil)
    #expect(shared.sharedNational == 2)
  }

  @Test func anE164KeywordTwiceIsAnInternalErrorNotARow() {
    #expect(throws: LiveCallerIDExportError.self) {
      try ShardRows(
        useCase: .block, shard: 0, shardCount: 1,
        scratch: [ScratchRow(number: 1, form: .e164), ScratchRow(number: 1, form: .e164)])
    }
  }

  @Test func scratchRowsReadBackAsWritten() throws {
    let rows = [
      ScratchRow(number: 14_085_551_212, form: .e164, label: 7, profile: 2),
      ScratchRow(number: 442_079_460_018, form: .national, nationalDigits: Array("02079460018".utf8), label: 0, profile: 0),
      ScratchRow(number: Int64.max, form: .e164, label: UInt32.max, profile: 1),
    ]
    for identity in [true, false] {
      var bytes: [UInt8] = []
      for row in rows { row.append(to: &bytes, identity: identity) }
      let read = try ScratchRow.decodeAll(bytes, identity: identity)
      #expect(read == rows.map { identity ? $0 : ScratchRow(number: $0.number, form: $0.form, nationalDigits: $0.nationalDigits) })
      #expect(throws: LiveCallerIDExportError.self) { try ScratchRow.decodeAll(bytes.dropLast(1).map { $0 }, identity: identity) }
    }
  }
}
