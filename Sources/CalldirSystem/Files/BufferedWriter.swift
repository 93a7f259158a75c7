/// Buffers small writes into large ones on a descriptor.
public final class BufferedWriter {
  public let descriptor: FileDescriptor
  /// The path, for errors.
  public let path: String
  private let capacity: Int
  private var buffer: [UInt8] = []
  /// Bytes handed to the writer so far (written or buffered).
  public private(set) var count: Int64 = 0

  public init(descriptor: FileDescriptor, path: String, capacity: Int = 1 << 18) {
    self.descriptor = descriptor
    self.path = path
    self.capacity = max(64, capacity)
    buffer.reserveCapacity(self.capacity)
  }

  /// Appends bytes; large ones go straight to the file.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    count += Int64(bytes.count)
    if buffer.count + bytes.count > capacity { try flush() }
    if bytes.count >= capacity {
      try wrap { () throws(Errno) in try descriptor.writeAll(bytes) }
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  public func write(_ bytes: [UInt8]) throws(FileError) {
    try bytes.withUnsafeBytes { raw in Result { () throws(FileError) in try write(raw) } }.get()
  }

  public func write(_ text: String) throws(FileError) {
    var text = text
    try text.withUTF8 { utf8 in Result { () throws(FileError) in try write(UnsafeRawBufferPointer(utf8)) } }.get()
  }

  public func write(byte: UInt8) throws(FileError) {
    count += 1
    if buffer.count >= capacity { try flush() }
    buffer.append(byte)
  }

  /// Writes what is buffered.
  public func flush() throws(FileError) {
    guard !buffer.isEmpty else { return }
    try wrap { () throws(Errno) in try descriptor.writeAll(buffer) }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Flushes, then replaces bytes already written at `offset`.
  public func overwrite(at offset: Int64, with bytes: UnsafeRawBufferPointer) throws(FileError) {
    try flush()
    try wrap { () throws(Errno) in try descriptor.writeAll(toAbsoluteOffset: offset, bytes) }
  }

  private func wrap(_ body: () throws(Errno) -> Void) throws(FileError) {
    do {
      try body()
    } catch {
      throw FileError(operation: "write", path: path, errno: error)
    }
  }
}
