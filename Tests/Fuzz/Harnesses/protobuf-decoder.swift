import LiveCallerID

/// Fuzzes LiveCallerID's protobuf wire decoder: it never traps on any
/// bytes, and whatever it accepts as a `KeywordDatabase` or a
/// `CallIdentity` encodes (canonically) to bytes it reads back as the same
/// value.
///
/// Input: byte 0's low bit picks the message (`ProtobufDecoderOptions`: 0
/// `KeywordDatabase`, 1 `CallIdentity`), the rest is the message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let message = ProtobufDecoderOptions(&input).message
  let bytes = input.rest
  if message == .keywordDatabase {
    guard let rows = try? KeywordDatabase.decode(bytes) else { return 0 }
    var encoded: [UInt8] = []
    for row in rows { KeywordDatabase.appendRow(keyword: row.keyword, value: row.value, to: &encoded) }
    do {
      let again = try KeywordDatabase.decode(encoded)
      fuzzCheck(again == rows, "\(rows.count) rows read back as \(again.count) others")
    } catch {
      fuzzCheck(false, "the encoding of \(rows.count) rows does not decode: \(error)")
    }
  } else {
    guard let identity = try? CallIdentity(decoding: bytes) else { return 0 }
    do {
      let again = try CallIdentity(decoding: identity.encoded())
      fuzzCheck(again == identity, "\(identity) reads back as \(again)")
    } catch {
      fuzzCheck(false, "the encoding of \(identity) does not decode: \(error)")
    }
  }
  return 0
}
