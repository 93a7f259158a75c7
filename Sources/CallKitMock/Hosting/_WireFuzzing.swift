/// The device wire protocol's decoders, reachable from the fuzz harnesses
/// through `@_spi(Fuzzing) import CallKitMock` and from nothing else: they
/// stay out of the public API.
@_spi(Fuzzing)
public enum _WireFuzzing {
  /// One decoded record, described only when printed.
  public struct Record: Equatable, CustomStringConvertible {
    let record: _Wire.Record
    public var description: String { String(describing: record) }
  }

  /// What decoding a stream gave.
  public struct Decoded: Equatable {
    /// Each whole record.
    public var records: [Record] = []
    /// Whether the decoder refused the stream.
    public var isMalformed = false
    /// Whether bytes of an unfinished record were left over.
    public var hasPartialRecord = false
  }

  /// Decodes `stream` the way a host reads an extension's pipe: fed in
  /// pieces ending at `splits` (clamped, in order), pulling every whole
  /// record after each piece, until the end or the first malformed record.
  public static func decode(_ stream: [UInt8], splittingAt splits: [Int]) -> Decoded {
    var decoder = _WireDecoder()
    var decoded = Decoded()
    var start = 0
    for end in splits.map({ min(max($0, 0), stream.count) }) + [stream.count] where end >= start {
      stream[start..<end].withUnsafeBytes { decoder.append($0) }
      start = end
      do throws(_Wire.MalformedStream) {
        while let record = try decoder.next() { decoded.records.append(Record(record: record)) }
      } catch {
        decoded.isMalformed = true
        return decoded
      }
    }
    decoded.hasPartialRecord = decoder.hasPartialRecord
    return decoded
  }

  /// Reads the host's reply to a request's end, described (`nil`: empty).
  public static func requestEnd(fromReply reply: [UInt8]) -> String? {
    _Wire.end(fromReply: reply).map { String(describing: $0) }
  }
}
