import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child side of ``ExtensionLaunch/childProcess(executablePath:arguments:)``:
/// what an extension executable's main calls.
///
/// The simulated system spawns the executable with the arguments it was
/// installed with, passes the request through environment variables and two
/// inherited descriptors, and plays CallKit's system side in the parent.
/// Any executable can host a provider; in calldir it is a hidden subcommand:
///
///     // main.swift of an extension executable
///     import CallKitMock
///
///     final class Provider: CXCallDirectoryProvider {
///       override func beginRequest(with context: CXCallDirectoryExtensionContext) {
///         context.addBlockingEntry(withNextSequentialPhoneNumber: 33_612_345_678)
///         context.completeRequest()
///       }
///     }
///
///     exit(CallDirectoryExtensionProcess.run { Provider() })
public enum CallDirectoryExtensionProcess {
  /// Exit status when the executable was not launched by the simulated
  /// system (`EX_USAGE`).
  public static let notLaunchedBySystemStatus: Int32 = 64

  /// Whether this process was launched by the simulated system as an
  /// extension process.
  public static var isLaunchedBySystem: Bool {
    ProcessInfo.processInfo.environment[_ChildEnvironment.dataDescriptor] != nil
  }

  /// The extension identifier the system launched this process for, if any.
  public static var extensionIdentifier: String? {
    ProcessInfo.processInfo.environment[_ChildEnvironment.identifier]
  }

  /// Serves one request: tells the system it is ready, creates the provider,
  /// calls its `beginRequest(with:)` and waits until the request ends
  /// (completed or cancelled, from any thread).
  ///
  /// - Parameter makeProvider: Creates the provider. Memory it uses counts
  ///   against the budget; an error it throws cancels the request with that
  ///   error.
  /// - Returns: The exit status for the process: 0 once the request ended,
  ///   1 when `makeProvider` threw, ``notLaunchedBySystemStatus`` when the
  ///   process was not launched by the simulated system.
  public static func run(_ makeProvider: () throws -> CXCallDirectoryProvider) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard let dataText = environment[_ChildEnvironment.dataDescriptor], let data = Int32(dataText),
      let controlText = environment[_ChildEnvironment.controlDescriptor], let control = Int32(controlText),
      let container = environment[_ChildEnvironment.container]
    else {
      FileHandle.standardError.write(Data("error: not launched as a call directory extension process\n".utf8))
      return notLaunchedBySystemStatus
    }
    signal(SIGPIPE, SIG_IGN)
    let sink = _ChildSink(
      dataDescriptor: data, controlDescriptor: control,
      isIncremental: environment[_ChildEnvironment.incremental] == "1")
    sink.sendHello()
    let provider: CXCallDirectoryProvider
    do {
      provider = try makeProvider()
    } catch {
      sink.cancel(error)
      return 1
    }
    let context = CXCallDirectoryExtensionContext(
      sink: sink, containerURL: URL(fileURLWithPath: container, isDirectory: true))
    provider.beginRequest(with: context)
    sink.waitForEnd()
    return 0
  }
}

/// The child-process sink: encodes calls into batches written to the data
/// pipe and reads the system's verdict from the control pipe.
final class _ChildSink: _ContextSink, @unchecked Sendable {
  private let condition = NSCondition()
  private let dataDescriptor: Int32
  private let controlDescriptor: Int32
  private let isIncrementalAvailable: Bool
  private var encoder = _WireEncoder()
  private var isBroken = false
  private var hasEnded = false
  private static let batchSize = 1 << 16

  init(dataDescriptor: Int32, controlDescriptor: Int32, isIncremental: Bool) {
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
    guard !isBroken else {
      return .failed(CXErrorCodeCallDirectoryManagerError(.loadingInterrupted, reason: "the system went away"))
    }
    return readReply()
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
    let bytes = encoder.bytes
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in write(dataDescriptor, raw.baseAddress! + offset, raw.count - offset) }
      if written < 0 && _currentErrno() == EINTR { continue }
      guard written > 0 else {
        isBroken = true
        return
      }
      offset += written
    }
  }

  /// Reads the reply until the system closes the control pipe.
  private func readReply() -> _RequestEnd {
    var reply: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { raw in read(controlDescriptor, raw.baseAddress, raw.count) }
      if count < 0 && _currentErrno() == EINTR { continue }
      guard count > 0 else { break }
      reply.append(contentsOf: chunk[0..<count])
    }
    guard let status = reply.first else {
      return .failed(CXErrorCodeCallDirectoryManagerError(.loadingInterrupted, reason: "the system sent no reply"))
    }
    if status == 0 { return .committed }
    var index = 1
    func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while index < reply.count, shift < 64 {
        let byte = reply[index]
        index += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }
    let code = varint().map { Int(truncatingIfNeeded: $0) } ?? 0
    var reason: String?
    if let length = varint(), length <= UInt64(reply.count - index) {
      reason = String(decoding: reply[index..<index + Int(length)], as: UTF8.self)
    }
    return .failed(CXErrorCodeCallDirectoryManagerError(rawCode: code, reason: reason))
  }
}
