#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable window over bytes read front to back, once: a file, a pipe,
/// a FIFO, standard input, or an array. Nothing is ever read twice or
/// reopened, so every kind of input works the same.
///
/// The unconsumed bytes are `base[0..<end]` after each
/// ``refill(keepingFrom:)``; callers keep their own cursor and pass it back
/// when they need more.
public final class ChunkedInput {
  /// Where the bytes come from.
  public enum Source: Sendable, Hashable {
    case path(String)
    /// An open descriptor (standard input, a pipe); not closed here.
    case descriptor(FileDescriptor, name: String)
    case bytes([UInt8])
  }

  public private(set) var base: UnsafeMutablePointer<UInt8>
  public private(set) var capacity: Int
  public private(set) var end = 0
  public private(set) var isEOF = false
  /// The input's size in bytes when known (a regular file, or bytes).
  public private(set) var size: Int?
  /// Bytes read so far.
  public private(set) var bytesRead = 0
  /// The input's name for messages: its path, `<stdin>`, `<memory>`.
  public let name: String
  /// Called with every new run of bytes as it is read.
  public var onRead: ((UnsafeRawBufferPointer) -> Void)?

  private let chunkSize: Int
  private let descriptor: FileDescriptor?
  private let ownsDescriptor: Bool
  private let bytes: [UInt8]
  private var bytesOffset = 0

  /// Opens `source`; `chunkSize` is the most bytes read per call.
  /// - Throws: ``FileError`` when a path cannot be opened or is a directory.
  public init(_ source: Source, chunkSize: Int = 1 << 20) throws(FileError) {
    self.chunkSize = max(1, chunkSize)
    capacity = max(16, self.chunkSize)
    switch source {
    case .bytes(let array):
      bytes = array
      size = array.count
      name = "<memory>"
      descriptor = nil
      ownsDescriptor = false
    case .descriptor(let open, let label):
      bytes = []
      name = label
      descriptor = open
      ownsDescriptor = false
      if let status = try? open.status(), status.isRegularFile { size = Int(status.size) }
    case .path(let path):
      bytes = []
      name = path
      let open = try FileDescriptor.open(path, .readOnly)
      let status: FileStatus
      do {
        status = try open.status()
      } catch {
        try? open.close()
        throw FileError(operation: "read the status of", path: path, errno: error)
      }
      if status.kind == .directory {
        try? open.close()
        throw FileError(operation: "read", path: path, errno: .isDirectory)
      }
      if status.isRegularFile { size = Int(status.size) }
      descriptor = open
      ownsDescriptor = true
    }
    base = .allocate(capacity: capacity)
  }

  deinit {
    if ownsDescriptor, let descriptor { try? descriptor.close() }
    base.deallocate()
  }

  /// Moves `base[keep..<end]` to the front and appends newly read bytes.
  ///
  /// Sets ``isEOF`` when the input has no more bytes. Indices shift down by
  /// `keep`.
  public func refill(keepingFrom keep: Int) throws(FileError) {
    let remaining = end - keep
    if keep > 0, remaining > 0 { memmove(base, base + keep, remaining) }
    end = remaining
    if isEOF { return }
    if capacity - end < chunkSize {
      let newCapacity = max(capacity * 2, end + chunkSize)
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      grown.update(from: base, count: end)
      base.deallocate()
      base = grown
      capacity = newCapacity
    }
    guard let descriptor else {
      let count = min(chunkSize, bytes.count - bytesOffset)
      guard count > 0 else {
        isEOF = true
        return
      }
      bytes.withUnsafeBufferPointer { buffer in
        if let source = buffer.baseAddress { (base + end).update(from: source + bytesOffset, count: count) }
      }
      bytesOffset += count
      record(count)
      return
    }
    let got: Int
    do {
      got = try descriptor.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: chunkSize))
    } catch {
      throw FileError(operation: "read", path: name, errno: error)
    }
    if got == 0 {
      isEOF = true
    } else {
      record(got)
    }
  }

  /// Whether more bytes can be read without waiting: false when a pipe or
  /// a terminal has nothing more right now; always true for bytes in
  /// memory and at the end.
  public var hasInputReady: Bool {
    guard !isEOF, let descriptor else { return true }
    return descriptor.hasInputReady
  }

  /// Reads until at least `count` bytes are buffered or the input ends.
  public func ensure(_ count: Int) throws(FileError) {
    while end < count, !isEOF { try refill(keepingFrom: 0) }
  }

  private func record(_ count: Int) {
    onRead?(UnsafeRawBufferPointer(start: base + end, count: count))
    bytesRead += count
    end += count
  }
}

@available(*, unavailable)
extension ChunkedInput: Sendable {}
