/// The bytes libFuzzer hands a harness: option bytes taken from the front,
/// the rest as the payload.
///
/// Every option is read with a default when the input is exhausted, so a
/// harness never has to bounds-check the input itself.
struct FuzzInput {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0

  init(_ data: UnsafePointer<UInt8>, _ size: Int) {
    bytes = UnsafeBufferPointer(start: data, count: size)
  }

  /// The next byte, or 0 past the end.
  mutating func takeByte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// The next byte as a choice among `count` cases.
  mutating func choose(_ count: Int) -> Int {
    Int(takeByte()) % count
  }

  /// The next `count` bytes (fewer past the end), copied.
  mutating func take(_ count: Int) -> [UInt8] {
    let end = min(position + count, bytes.count)
    defer { position = max(position, end) }
    return position < end ? Array(bytes[position..<end]) : []
  }

  /// The bytes not taken yet, as a buffer into libFuzzer's input.
  var remaining: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[min(position, bytes.count)...])
  }

  /// The bytes not taken yet, copied.
  var rest: [UInt8] { Array(remaining) }
}
