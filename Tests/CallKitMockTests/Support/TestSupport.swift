@_exported import CalldirTestSupport
import Foundation
import Testing

@testable import CallKitMock

/// A provider that runs a closure.
final class ClosureProvider: CXCallDirectoryProvider {
  let body: @Sendable (CXCallDirectoryExtensionContext) -> Void

  init(_ body: @escaping @Sendable (CXCallDirectoryExtensionContext) -> Void) {
    self.body = body
  }

  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    body(context)
  }
}

/// Records what the context reports back to the extension.
final class DelegateRecorder: CXCallDirectoryExtensionContextDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var _failures: [CXErrorCodeCallDirectoryManagerError.Code] = []

  var failures: [CXErrorCodeCallDirectoryManagerError.Code] {
    lock.lock()
    defer { lock.unlock() }
    return _failures
  }

  func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error) {
    lock.lock()
    defer { lock.unlock() }
    _failures.append((error as? CXErrorCodeCallDirectoryManagerError)?.code ?? .unknown)
  }
}

/// A thread-safe box for values captured by `@Sendable` closures.
final class Box<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var _value: Value

  init(_ value: Value) {
    _value = value
  }

  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return _value
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      _value = newValue
    }
  }
}

/// A device with one in-process extension.
struct Fixture {
  static let identifier = "com.example.app.CallDirectory"
  let directory: TemporaryDirectory
  let device: SimulatedDevice

  init(settings: ExtensionSettings = ExtensionSettings()) throws {
    directory = try TemporaryDirectory()
    device = try SimulatedDevice(directoryURL: directory.url)
    try device.installExtension(withIdentifier: Self.identifier, settings: settings)
  }

  /// Runs one request whose provider is `body`.
  @discardableResult
  func load(_ body: @escaping @Sendable (CXCallDirectoryExtensionContext) -> Void) -> ReloadReport {
    device.registerProvider(forExtensionWithIdentifier: Self.identifier) { ClosureProvider(body) }
    return device.reloadExtension(withIdentifier: Self.identifier)
  }

  /// Runs one complete request that adds `blocking` and `identification`.
  @discardableResult
  func loadComplete(
    blocking: [Int64] = [],
    identification: [(Int64, String)] = []
  ) -> ReloadReport {
    let labels = identification.map { IdentificationEntry(number: $0.0, label: $0.1) }
    return load { context in
      for number in blocking { context.addBlockingEntry(withNextSequentialPhoneNumber: number) }
      for entry in labels {
        context.addIdentificationEntry(withNextSequentialPhoneNumber: entry.number, label: entry.label)
      }
      context.completeRequest()
    }
  }

  var blocking: [Int64] {
    (try? device.blockingEntries(forExtensionWithIdentifier: Self.identifier)) ?? [-1]
  }

  var identification: [IdentificationEntry] {
    (try? device.identificationEntries(forExtensionWithIdentifier: Self.identifier)) ?? []
  }

  var storeBytes: Data? {
    guard let url = try? device.storeFileURL(forExtensionWithIdentifier: Self.identifier) else { return nil }
    return try? Data(contentsOf: url)
  }
}

/// The code of a reload error, if it is a CallKit one.
func code(_ report: ReloadReport) -> CXErrorCodeCallDirectoryManagerError.Code? {
  (report.error as? CXErrorCodeCallDirectoryManagerError)?.code
}

/// The built `mockext` executable, next to the test bundle.
func mockextPath() throws -> String {
  let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
  for _ in 0..<3 {
    let candidate = directory.appendingPathComponent("mockext").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory = directory.deletingLastPathComponent()
  }
  throw SimulatedDeviceError.storage("mockext not found near \(executable)")
}
