#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer over a file descriptor that can hash what it writes
/// (FNV-1a 64) and sync to disk.
final class _FileWriter {
  let path: String
  private var fd: Int32
  private var buffer: [UInt8] = []
  private let capacity: Int
  /// Bytes handed to the writer so far.
  private(set) var bytesWritten: UInt64 = 0
  /// Whether ``checksum`` is updated by writes.
  var isHashing = false
  /// FNV-1a 64 over the bytes written while ``isHashing`` was on.
  private(set) var checksum: UInt64 = _FNV.offsetBasis

  /// Creates or truncates `path`.
  init(creating path: String, capacity: Int = 1 << 16) throws(_SystemError) {
    self.path = path
    self.capacity = capacity
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .errno("open", path) }
    buffer.reserveCapacity(capacity)
  }

  /// Wraps an existing descriptor, which the writer then owns.
  init(descriptor: Int32, name: String, capacity: Int = 1 << 16) {
    self.path = name
    self.fd = descriptor
    self.capacity = capacity
    buffer.reserveCapacity(capacity)
  }

  deinit {
    if fd >= 0 { _ = _closeDescriptor(fd) }
  }

  /// Appends one byte.
  func writeByte(_ byte: UInt8) throws(_SystemError) {
    if buffer.count >= capacity { try flush() }
    buffer.append(byte)
    bytesWritten += 1
    if isHashing { checksum = _FNV.add(byte, to: checksum) }
  }

  /// Appends bytes.
  func writeBytes<C: Collection<UInt8>>(_ bytes: C) throws(_SystemError) {
    for byte in bytes { try writeByte(byte) }
  }

  /// Appends a LEB128 varint.
  func writeVarint(_ value: UInt64) throws(_SystemError) {
    var remaining = value
    while remaining > 0x7F {
      try writeByte(UInt8(truncatingIfNeeded: remaining) | 0x80)
      remaining >>= 7
    }
    try writeByte(UInt8(remaining))
  }

  /// Appends a little-endian `Int64`.
  func writeInt64(_ value: Int64) throws(_SystemError) {
    let bits = UInt64(bitPattern: value)
    for shift in stride(from: 0, to: 64, by: 8) {
      try writeByte(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
  }

  /// Writes the buffered bytes to the descriptor.
  func flush() throws(_SystemError) {
    var offset = 0
    let count = buffer.count
    while offset < count {
      let written = buffer.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress! + offset, count - offset)
      }
      if written < 0 {
        if _currentErrno() == EINTR { continue }
        throw .errno("write", path)
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Overwrites bytes at an absolute offset, bypassing the buffer.
  func overwrite(_ bytes: [UInt8], at position: Int64) throws(_SystemError) {
    try flush()
    let written = bytes.withUnsafeBytes { raw in
      pwrite(fd, raw.baseAddress, raw.count, off_t(position))
    }
    guard written == bytes.count else { throw .errno("pwrite", path) }
  }

  /// Flushes and calls `fsync`.
  func sync() throws(_SystemError) {
    try flush()
    guard fsync(fd) == 0 else { throw .errno("fsync", path) }
  }

  /// Flushes and closes the descriptor.
  func close() throws(_SystemError) {
    defer {
      if fd >= 0 { _ = _closeDescriptor(fd) }
      fd = -1
    }
    try flush()
  }
}

/// FNV-1a 64, the store's checksum.
enum _FNV {
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  static func add(_ byte: UInt8, to hash: UInt64) -> UInt64 {
    (hash ^ UInt64(byte)) &* prime
  }
}
