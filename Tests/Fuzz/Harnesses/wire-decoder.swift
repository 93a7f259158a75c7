@_spi(Fuzzing) import CallKitMock

/// Fuzzes the device wire protocol's decoder (`_WireDecoder`, through
/// `_WireFuzzing`): a stream must decode to the same records, and fail or
/// stop at the same place, whether it arrives whole or in pieces; the reply
/// reader must take any bytes.
///
/// Input: byte 0 is the number of split points (mod 8), the next bytes the
/// split offsets (`WireDecoderOptions`), the rest is the stream (also read
/// as a reply).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let splits = WireDecoderOptions(&input).splits
  let stream = input.rest
  let whole = _WireFuzzing.decode(stream, splittingAt: [])
  let pieces = _WireFuzzing.decode(stream, splittingAt: splits)
  fuzzCheck(whole == pieces, "split at \(splits), the stream decodes as \(pieces), whole as \(whole)")
  if stream.count <= 512 {
    let byteByByte = _WireFuzzing.decode(stream, splittingAt: Array(0..<stream.count))
    fuzzCheck(whole == byteByByte, "byte by byte, the stream decodes as \(byteByByte), whole as \(whole)")
  }
  _ = _WireFuzzing.requestEnd(fromReply: stream)
  return 0
}
