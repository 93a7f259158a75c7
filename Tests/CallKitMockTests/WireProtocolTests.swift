import Testing

@testable import CallKitMock

@Suite struct WireProtocolTests {
  static let operations: [CallDirectoryOperation] = [
    .addBlocking(1), .addBlocking(CXCallDirectoryPhoneNumberMax), .addBlocking(-5), .addBlocking(Int64.min),
    .addIdentification(33_612_345_678, label: "⚠️ spam"), .addIdentification(0, label: ""),
    .removeBlocking(7), .removeIdentification(Int64.max), .removeAllBlocking, .removeAllIdentification,
    .readIncremental(false), .complete,
  ]

  @Test func roundTripsByteByByte() throws {
    var encoder = _WireEncoder()
    encoder.encodeHello()
    for operation in Self.operations { encoder.encode(operation) }
    encoder.encodeCancel(domain: "CallDirectoryHandler", code: -2, message: "nope")
    var decoder = _WireDecoder()
    var records: [_Wire.Record] = []
    for byte in encoder.bytes {
      [byte].withUnsafeBytes { decoder.append($0) }
      while let record = try decoder.next() { records.append(record) }
    }
    #expect(records.first == .hello)
    #expect(Array(records.dropFirst().prefix(Self.operations.count)) == Self.operations.map { .operation($0) })
    #expect(records.last == .cancel(domain: "CallDirectoryHandler", code: -2, message: "nope"))
    #expect(!decoder.hasPartialRecord)
  }

  @Test func rejectsGarbage() {
    var decoder = _WireDecoder()
    Array("HTTP/1.1".utf8).withUnsafeBytes { decoder.append($0) }
    #expect(throws: _Wire.MalformedStream.self) { _ = try decoder.next() }

    var badTag = _WireDecoder()
    (_Wire.magic + [0xEE]).withUnsafeBytes { badTag.append($0) }
    #expect(throws: _Wire.MalformedStream.self) { _ = try badTag.next() }

    var longLabel = _WireDecoder()
    (_Wire.magic + [0x03, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).withUnsafeBytes { longLabel.append($0) }
    #expect(throws: _Wire.MalformedStream.self) { _ = try longLabel.next() }

    var overlong = _WireDecoder()
    (_Wire.magic + [0x02] + [UInt8](repeating: 0xFF, count: 11)).withUnsafeBytes { overlong.append($0) }
    #expect(throws: _Wire.MalformedStream.self) { _ = try overlong.next() }
  }
}
