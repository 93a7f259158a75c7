#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered sequential reader over a file that can hash what it reads.
final class _FileReader {
  let path: String
  private var fd: Int32
  private var buffer: [UInt8]
  private var index = 0
  private var end = 0
  /// Whether ``checksum`` is updated by reads.
  var isHashing = false
  /// FNV-1a 64 over the bytes read while ``isHashing`` was on.
  private(set) var checksum: UInt64 = _FNV.offsetBasis

  /// Opens `path` for reading.
  init(path: String, capacity: Int = 1 << 16) throws(_SystemError) {
    self.path = path
    buffer = [UInt8](repeating: 0, count: capacity)
    fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .errno("open", path) }
  }

  deinit {
    if fd >= 0 { _ = close(fd) }
  }

  /// The next byte, or `nil` at the end of the file.
  func readByte() throws(_SystemError) -> UInt8? {
    if index == end {
      guard try refill() else { return nil }
    }
    let byte = buffer[index]
    index += 1
    if isHashing { checksum = _FNV.add(byte, to: checksum) }
    return byte
  }

  /// The next byte; a missing byte is a truncated file.
  func requireByte() throws(_SystemError) -> UInt8 {
    guard let byte = try readByte() else { throw _SystemError("\(path) is truncated") }
    return byte
  }

  /// The next varint, or `nil` at a clean end of the file.
  func readVarint() throws(_SystemError) -> UInt64? {
    guard let first = try readByte() else { return nil }
    var value = UInt64(first & 0x7F)
    var byte = first
    var shift: UInt64 = 7
    while byte & 0x80 != 0 {
      byte = try requireByte()
      guard shift < 64, !(shift == 63 && byte > 1) else {
        throw _SystemError("\(path) holds a malformed varint")
      }
      value |= UInt64(byte & 0x7F) << shift
      shift += 7
    }
    return value
  }

  /// The next varint; a missing one is a truncated file.
  func requireVarint() throws(_SystemError) -> UInt64 {
    guard let value = try readVarint() else { throw _SystemError("\(path) is truncated") }
    return value
  }

  /// The next `count` bytes.
  func readBytes(_ count: Int) throws(_SystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    for _ in 0..<count { bytes.append(try requireByte()) }
    return bytes
  }

  /// The next little-endian `Int64`, or `nil` at a clean end of the file.
  func readInt64() throws(_SystemError) -> Int64? {
    guard let first = try readByte() else { return nil }
    var bits = UInt64(first)
    for shift in stride(from: 8, to: 64, by: 8) {
      bits |= UInt64(try requireByte()) << UInt64(shift)
    }
    return Int64(bitPattern: bits)
  }

  private func refill() throws(_SystemError) -> Bool {
    while true {
      let count = buffer.withUnsafeMutableBytes { raw in
        read(fd, raw.baseAddress, raw.count)
      }
      if count < 0 {
        if _currentErrno() == EINTR { continue }
        throw .errno("read", path)
      }
      index = 0
      end = count
      return count > 0
    }
  }
}
