import CalldirSystem
import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import CommandLineKit
import Foundation

extension Calldir {
  /// `calldir device`: a simulated iOS device whose Call Directory
  /// extensions run calldir's provider.
  enum Device: Command {
    static let configuration = CommandConfiguration(
      name: "device",
      abstract: "Load blobs into a simulated device and show what it holds.",
      discussion: """
        A device is a directory (CallKitMock's SimulatedDevice). Its extensions are \
        named calldir.extension.1, calldir.extension.2, …; each runs calldir's provider \
        in a child process under a memory budget, reading its blobs from its app-group \
        container (CallDirectory/Data/) and keeping the loaded version and digest in \
        CallDirectory/state.json.
        """,
      subcommands: [Load.self, Dump.self, Status.self, ExtensionHost.self]
    )
  }
}

/// The provider calldir's extensions run: CallDirectoryProvider's loader
/// over the extension's app-group container.
final class CalldirCallDirectoryProvider: CXCallDirectoryProvider {
  let options: CallDirectoryLoader.Options

  init(options: CallDirectoryLoader.Options = CallDirectoryLoader.Options()) {
    self.options = options
  }

  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    let layout = ProviderLayout(containerPath: context.simulatedAppGroupContainerURL.path)
    CallDirectoryLoader(layout: layout, options: options).serve(context)
  }
}

// CallKitMock's context has CallKit's method names, so it conforms as is.
extension CXCallDirectoryExtensionContext: CallDirectoryEntrySink {}
extension CXCallDirectoryExtensionContext: CallDirectoryRequestContext {}

// Stable domain and code when a provider error crosses the process boundary.
extension CallDirectoryProviderError: CustomNSError {}

/// Helpers shared by the `device` commands.
enum DeviceSupport {
  /// Extension identifiers are this prefix followed by the shard number (1-based).
  static let identifierPrefix = "calldir.extension."

  /// The identifier of shard `index` (1-based).
  static func identifier(shard index: Int) -> String { identifierPrefix + String(index) }

  /// Opens an existing device directory.
  ///
  /// - Throws: `ToolError.noInput` when `path` is not a directory.
  static func openExisting(_ path: String) throws -> SimulatedDevice {
    guard (try? FileSystem.status(path))?.kind == .directory else {
      throw ToolError.noInput("no device at '\(path)'")
    }
    return try open(path)
  }

  /// Opens a device directory, creating it when missing.
  static func open(_ path: String) throws -> SimulatedDevice {
    do {
      return try SimulatedDevice(directoryURL: URL(fileURLWithPath: path, isDirectory: true))
    } catch {
      throw mapped(error)
    }
  }

  /// The installed extensions: calldir's by shard number, then any others by name.
  static func extensions(of device: SimulatedDevice) throws -> [String] {
    let identifiers: [String]
    do {
      identifiers = try device.installedExtensionIdentifiers()
    } catch {
      throw mapped(error)
    }
    func shard(_ identifier: String) -> Int? {
      guard identifier.hasPrefix(identifierPrefix) else { return nil }
      return Int(identifier.dropFirst(identifierPrefix.count))
    }
    return identifiers.sorted { a, b in
      switch (shard(a), shard(b)) {
      case (let x?, let y?): x < y
      case (.some, nil): true
      case (nil, .some): false
      case (nil, nil): a < b
      }
    }
  }

  /// The provider layout inside an installed extension's container.
  static func layout(_ device: SimulatedDevice, _ identifier: String) throws -> ProviderLayout {
    do {
      return ProviderLayout(containerPath: try device.appGroupContainerURL(forExtensionWithIdentifier: identifier).path)
    } catch {
      throw mapped(error)
    }
  }

  /// The provider state of an extension as its provider plans with it: an
  /// empty state when it has none or it is not a valid state.
  ///
  /// - Throws: A ``MappedError`` (`ioError`) when the state cannot be read.
  static func providerState(_ device: SimulatedDevice, _ identifier: String) throws -> ProviderState {
    try providerState(in: try layout(device, identifier), identifier)
  }

  /// The provider state in `layout`, as ``providerState(_:_:)`` reads it.
  static func providerState(in layout: ProviderLayout, _ identifier: String) throws -> ProviderState {
    do {
      return try ProviderStateStore(path: layout.statePath).loadForPlanning()
    } catch {
      throw MappedError(exitCode: .ioError, message: "\(identifier): \(error)")
    }
  }

  /// Reserves an extension's requests for the rest of the command (see
  /// ``ExtensionReservation``): a concurrent `device load` of it fails with
  /// `currentlyLoading` instead of mixing its data with this one's.
  static func reserve(_ device: SimulatedDevice, _ identifier: String) throws -> ExtensionReservation {
    do {
      return try device.reserveExtension(withIdentifier: identifier)
    } catch .extensionBusy {
      throw MappedError(
        exitCode: .failure, message: CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description)
    } catch {
      throw mapped(error)
    }
  }

  /// The running executable's path, from `/proc/self/exe` (falling back to `argv[0]`).
  static func executablePath() -> String {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return path
    }
    return URL(fileURLWithPath: CommandLine.arguments.first ?? "calldir").standardizedFileURL.path
  }

  /// A device management error as a tool error.
  static func mapped(_ error: any Error) -> any Error {
    guard let error = error as? SimulatedDeviceError else { return error }
    switch error {
    case .storage: return MappedError(exitCode: .ioError, message: error.description)
    case .noSuchExtension: return MappedError(exitCode: .noInput, message: error.description)
    case .extensionBusy: return MappedError(exitCode: .tempFail, message: error.description)
    case .invalidIdentifier, .alreadyInstalled, .invalidSettings:
      return MappedError(exitCode: .software, message: error.description)
    }
  }

  /// A date as ISO 8601 (UTC), or JSON `null`.
  static func json(_ date: Date?) -> JSONValue {
    date.map { .string($0.formatted(.iso8601)) } ?? .null
  }
}
