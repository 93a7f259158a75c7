import CalldirSystem

/// Writes a new temporary file of varints and bytes (a spilled run of
/// variable-length records) through a buffer.
final class SpillByteWriter {
  let path: String
  private let descriptor: FileDescriptor
  private let writer: BufferedWriter
  private var staging: [UInt8] = []

  /// Creates the file at `path`, which must not exist.
  init(path: String) throws(CompileError) {
    self.path = path
    do {
      descriptor = try FileDescriptor.open(path, .writeOnly, options: .exclusiveCreate, permissions: 0o600)
    } catch {
      throw .spill(error)
    }
    writer = BufferedWriter(descriptor: descriptor, path: path, capacity: 1 << 20)
    staging.reserveCapacity(Self.stagingBytes + 4096)
  }

  deinit { try? descriptor.close() }

  private static let stagingBytes = 1 << 16

  /// Appends `value` as a LEB128 varint.
  @inline(__always)
  func varint(_ value: UInt64) throws(CompileError) {
    Varint.append(value, to: &staging)
    if staging.count >= Self.stagingBytes { try flush() }
  }

  /// Appends a signed value as a ZigZag varint.
  @inline(__always)
  func signed(_ value: Int64) throws(CompileError) { try varint(Varint.zigZag(value)) }

  /// Appends `bytes` as they are.
  func bytes<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(CompileError) {
    staging.append(contentsOf: bytes)
    if staging.count >= Self.stagingBytes { try flush() }
  }

  /// Appends `bytes` after their length (a varint).
  func lengthPrefixed<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(CompileError) {
    try varint(UInt64(bytes.count))
    try self.bytes(bytes)
  }

  /// Writes what is buffered; the file is complete.
  func finish() throws(CompileError) {
    try flush()
    do {
      try writer.flush()
    } catch {
      throw .spill(error)
    }
  }

  private func flush() throws(CompileError) {
    do {
      try writer.write(staging)
    } catch {
      throw .spill(error)
    }
    staging.removeAll(keepingCapacity: true)
  }
}

/// Reads a file that ``SpillByteWriter`` wrote, front to back, with a
/// bounded buffer.
final class SpillByteReader {
  let path: String
  private let input: ChunkedInput
  private var position = 0

  /// Opens `path`, reading `bufferBytes` at a time.
  init(path: String, bufferBytes: Int) throws(CompileError) {
    self.path = path
    do {
      input = try ChunkedInput(.path(path), chunkSize: max(4096, bufferBytes))
    } catch {
      throw .spill(error)
    }
  }

  /// Whether at least `count` bytes are buffered past the cursor, reading
  /// more when needed (false only at the end of the file).
  @inline(__always)
  private func have(_ count: Int) throws(CompileError) -> Bool {
    if input.end - position >= count { return true }
    do {
      try input.refill(keepingFrom: position)
      position = 0
      try input.ensure(count)
    } catch {
      throw .spill(error)
    }
    return input.end >= count
  }

  /// Whether the file has no more bytes.
  func isAtEnd() throws(CompileError) -> Bool { try !have(1) }

  /// The next LEB128 varint.
  @inline(__always)
  func varint() throws(CompileError) -> UInt64 {
    _ = try have(Varint.maximumLength)
    let available = UnsafeRawBufferPointer(start: input.base + position, count: input.end - position)
    var at = 0
    guard let value = Varint.read(available, at: &at) else { throw damaged("damaged temporary run") }
    position += at
    return value
  }

  /// The next ZigZag varint.
  @inline(__always)
  func signed() throws(CompileError) -> Int64 { Varint.unZigZag(try varint()) }

  /// The next `count` bytes, valid until the next read.
  func bytes(_ count: Int) throws(CompileError) -> UnsafeRawBufferPointer {
    guard try have(count) else { throw damaged("temporary run ends early") }
    defer { position += count }
    return UnsafeRawBufferPointer(start: input.base + position, count: count)
  }

  /// The next length-prefixed bytes, valid until the next read.
  func lengthPrefixed() throws(CompileError) -> UnsafeRawBufferPointer {
    let count = try varint()
    guard count <= UInt64(Int32.max) else { throw damaged("damaged temporary run") }
    return try bytes(Int(count))
  }

  private func damaged(_ detail: String) -> CompileError {
    .spill(FileError(operation: "read", path: path, errno: .ioError, detail: detail))
  }
}
