/// The option bytes of the wire-decoder harness: byte 0 is the number of
/// split points (mod 8), each next byte the distance from the previous
/// split point; the rest is the stream.
struct WireDecoderOptions: Equatable {
  var splits: [Int]

  init(splits: [Int]) { self.splits = splits }

  init(_ input: inout FuzzInput) {
    let count = Int(input.takeByte() % 8)
    var splits: [Int] = []
    var offset = 0
    for _ in 0..<count {
      offset += Int(input.takeByte())
      splits.append(offset)
    }
    self.splits = splits
  }

  /// The option bytes that decode to these split points (nil: more than 7,
  /// or not ascending by at most 255).
  var bytes: [UInt8]? {
    guard splits.count < 8 else { return nil }
    var bytes = [UInt8(splits.count)]
    var previous = 0
    for split in splits {
      guard (0...255).contains(split - previous) else { return nil }
      bytes.append(UInt8(split - previous))
      previous = split
    }
    return bytes
  }
}
