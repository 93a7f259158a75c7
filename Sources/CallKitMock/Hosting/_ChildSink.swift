import CalldirSystem
import Foundation

/// The child-process sink: encodes calls into batches written to the data
/// pipe and reads the system's verdict from the control pipe.
final class _ChildSink: _ContextSink, @unchecked Sendable {
  private let condition = NSCondition()
  private let dataDescriptor: FileDescriptor
  private let controlDescriptor: FileDescriptor
  private let isIncrementalAvailable: Bool
  private var encoder = _WireEncoder()
  private var isBroken = false
  private var hasEnded = false
  /// Whether the system's verdict on `complete` could not be read.
  private(set) var lostSystem = false
  private static let batchSize = 1 << 16

  init(dataDescriptor: FileDescriptor, controlDescriptor: FileDescriptor, isIncremental: Bool) {
    self.dataDescriptor = dataDescriptor
    self.controlDescriptor = controlDescriptor
    self.isIncrementalAvailable = isIncremental
  }

  func sendHello() {
    condition.lock()
    defer { condition.unlock() }
    encoder.encodeHello()
    flush()
  }

  func readIncremental() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    encoder.encode(.readIncremental(isIncrementalAvailable))
    return isIncrementalAvailable
  }

  func record(_ operation: CallDirectoryOperation) {
    condition.lock()
    defer { condition.unlock() }
    encoder.encode(operation)
    if encoder.bytes.count >= Self.batchSize { flush() }
  }

  func complete() -> _RequestEnd {
    condition.lock()
    defer {
      hasEnded = true
      condition.broadcast()
      condition.unlock()
    }
    encoder.encode(.complete)
    flush()
    // The system commits only a request whose `complete` it read whole.
    guard !isBroken else {
      return .failed(CXErrorCodeCallDirectoryManagerError(.loadingInterrupted, reason: "the system went away"))
    }
    guard let end = readReply() else {
      lostSystem = true
      return .unknown
    }
    return end
  }

  func cancel(_ error: any Error) {
    condition.lock()
    defer {
      hasEnded = true
      condition.broadcast()
      condition.unlock()
    }
    let identity = _identity(of: error)
    encoder.encodeCancel(domain: identity.domain, code: identity.code, message: identity.message)
    flush()
  }

  func waitForEnd() {
    condition.lock()
    defer { condition.unlock() }
    while !hasEnded { condition.wait() }
  }

  private func flush() {
    defer { encoder.removeAll() }
    guard !isBroken else { return }
    do {
      try dataDescriptor.writeAll(encoder.bytes)
    } catch {
      isBroken = true
    }
  }

  /// Reads the reply until the system closes the control pipe (or a read
  /// fails); `nil` when not even its first byte arrived.
  private func readReply() -> _RequestEnd? {
    var reply: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      guard let count = try? controlDescriptor.read(into: chunk), count > 0 else { break }
      reply.append(contentsOf: chunk[0..<count])
    }
    return _Wire.end(fromReply: reply)
  }
}
