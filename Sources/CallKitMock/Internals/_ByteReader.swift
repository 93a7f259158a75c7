import CalldirSystem

/// Reads a device file front to back: bytes, varints and little-endian
/// integers, optionally hashing what it consumes (FNV-1a 64). Never traps
/// on a short or malformed file.
final class _ByteReader {
  let path: String
  private let input: ChunkedInput
  private var cursor = 0
  /// Whether consumed bytes update ``checksum``.
  var isHashing = false
  /// FNV-1a 64 over the bytes consumed while ``isHashing`` was on.
  private(set) var checksum = _FNV.offsetBasis

  /// Opens `path`.
  init(path: String) throws(_DeviceStorageError) {
    self.path = path
    input = try _io { () throws(FileError) in try ChunkedInput(.path(path), chunkSize: 1 << 16) }
  }

  /// Whether every byte was consumed.
  func isAtEnd() throws(_DeviceStorageError) -> Bool {
    try fill(1) == 0
  }

  /// The next varint, or `nil` at a clean end of the file.
  func readVarint() throws(_DeviceStorageError) -> UInt64? {
    let available = try fill(Varint.maximumLength)
    guard available > 0 else { return nil }
    var position = 0
    guard let value = Varint.read(UnsafeRawBufferPointer(start: input.base + cursor, count: available), at: &position)
    else { throw corrupt("a varint is truncated or does not fit in 64 bits") }
    consume(position)
    return value
  }

  /// The next varint; a missing one is a truncated file.
  func requireVarint() throws(_DeviceStorageError) -> UInt64 {
    guard let value = try readVarint() else { throw corrupt("it is truncated") }
    return value
  }

  /// The next little-endian `Int64`, or `nil` at a clean end of the file.
  func readInt64() throws(_DeviceStorageError) -> Int64? {
    let available = try fill(8)
    guard available > 0 else { return nil }
    guard available >= 8 else { throw corrupt("it is truncated") }
    var bits: UInt64 = 0
    for index in 0..<8 { bits |= UInt64(input.base[cursor + index]) << UInt64(8 * index) }
    consume(8)
    return Int64(bitPattern: bits)
  }

  /// The next `count` bytes.
  func readBytes(_ count: Int) throws(_DeviceStorageError) -> [UInt8] {
    guard try fill(count) >= count else { throw corrupt("it is truncated") }
    let bytes = Array(UnsafeBufferPointer(start: input.base + cursor, count: count))
    consume(count)
    return bytes
  }

  /// Up to the next `count` bytes (fewer only at the end of the file).
  func readBytesOrFewer(_ count: Int) throws(_DeviceStorageError) -> [UInt8] {
    let available = try fill(count)
    let bytes = Array(UnsafeBufferPointer(start: input.base + cursor, count: available))
    consume(available)
    return bytes
  }

  /// A corruption of this file.
  func corrupt(_ reason: String) -> _DeviceStorageError {
    .corrupt(path: path, reason: reason)
  }

  /// Reads until `count` bytes are buffered past the cursor or the file
  /// ends; returns how many are.
  private func fill(_ count: Int) throws(_DeviceStorageError) -> Int {
    while input.end - cursor < count && !input.isEOF {
      try _io { () throws(FileError) in try input.refill(keepingFrom: cursor) }
      cursor = 0
    }
    return min(count, input.end - cursor)
  }

  private func consume(_ count: Int) {
    if isHashing { checksum = _FNV.add(UnsafeRawBufferPointer(start: input.base + cursor, count: count), to: checksum) }
    cursor += count
  }
}
