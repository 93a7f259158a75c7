import CalldirSystem

/// Appends bytes, varints and little-endian integers to a
/// ``BufferedWriter``, optionally hashing them (FNV-1a 64).
final class _ByteWriter {
  let writer: BufferedWriter
  private var pending: [UInt8] = []
  private static let batch = 1 << 16
  /// Whether appended bytes update ``checksum``.
  var isHashing = false
  /// FNV-1a 64 over the bytes appended while ``isHashing`` was on.
  private(set) var checksum = _FNV.offsetBasis
  /// Bytes appended so far.
  private(set) var count: UInt64 = 0

  init(_ writer: BufferedWriter) {
    self.writer = writer
    pending.reserveCapacity(Self.batch + Varint.maximumLength)
  }

  /// Appends bytes.
  func append(_ bytes: some Collection<UInt8>) throws(FileError) {
    let start = pending.count
    pending.append(contentsOf: bytes)
    try appended(from: start)
  }

  /// Appends the varint encoding of `value`.
  func appendVarint(_ value: UInt64) throws(FileError) {
    let start = pending.count
    Varint.append(value, to: &pending)
    try appended(from: start)
  }

  /// Appends `value` as 8 little-endian bytes.
  func appendInt64(_ value: Int64) throws(FileError) {
    let start = pending.count
    withUnsafeBytes(of: value.littleEndian) { pending.append(contentsOf: $0) }
    try appended(from: start)
  }

  /// Hands everything appended to the writer.
  func flush() throws(FileError) {
    guard !pending.isEmpty else { return }
    try writer.write(pending)
    pending.removeAll(keepingCapacity: true)
  }

  private func appended(from start: Int) throws(FileError) {
    count += UInt64(pending.count - start)
    if isHashing {
      checksum = pending.withUnsafeBytes { _FNV.add(UnsafeRawBufferPointer(rebasing: $0[start...]), to: checksum) }
    }
    if pending.count >= Self.batch { try flush() }
  }
}
