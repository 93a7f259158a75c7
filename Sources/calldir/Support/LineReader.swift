import Glibc

/// Reads a file descriptor line by line in large chunks: LF ends a line, a
/// CR before it is dropped, a last line without LF still counts.
struct LineReader {
  private let descriptor: Int32
  private let chunkSize: Int

  init(descriptor: Int32, chunkSize: Int = 1 << 20) {
    self.descriptor = descriptor
    self.chunkSize = chunkSize
  }

  /// Calls `body` with each line's bytes (valid only during the call).
  /// - Throws: `ToolError.io` when reading fails.
  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ToolError.io("cannot read standard input: \(String(cString: strerror(errno)))")
      }
      if count == 0 { break }
      try buffer.withUnsafeBufferPointer { chunk in
        var start = 0
        for index in 0..<count where chunk[index] == 0x0A {
          if pending.isEmpty {
            try body(Self.trimmingCR(UnsafeBufferPointer(rebasing: chunk[start..<index])))
          } else {
            pending.append(contentsOf: chunk[start..<index])
            try pending.withUnsafeBufferPointer { try body(Self.trimmingCR($0)) }
            pending.removeAll(keepingCapacity: true)
          }
          start = index + 1
        }
        pending.append(contentsOf: chunk[start..<count])
      }
    }
    if !pending.isEmpty {
      try pending.withUnsafeBufferPointer { try body(Self.trimmingCR($0)) }
    }
  }

  private static func trimmingCR(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard let last = line.last, last == 0x0D else { return line }
    return UnsafeBufferPointer(rebasing: line.dropLast())
  }
}
