import CalldirSystem
import Foundation

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

  /// Exit status when the process lost the system after asking to complete
  /// the request, so that the outcome is unknown (`EX_IOERR`); the
  /// completion handler was not called.
  public static let lostSystemStatus: Int32 = 74

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
  ///   1 when `makeProvider` threw, ``lostSystemStatus`` when the system's
  ///   verdict could not be read, ``notLaunchedBySystemStatus`` when the
  ///   process was not launched by the simulated system.
  public static func run(_ makeProvider: () throws -> CXCallDirectoryProvider) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    guard let dataText = environment[_ChildEnvironment.dataDescriptor], let data = Int32(dataText),
      let controlText = environment[_ChildEnvironment.controlDescriptor], let control = Int32(controlText),
      let container = environment[_ChildEnvironment.container]
    else {
      try? FileDescriptor.standardError.writeAll(Array("error: not launched as a call directory extension process\n".utf8))
      return notLaunchedBySystemStatus
    }
    signal(SIGPIPE, SIG_IGN)
    exitWhenTheSystemDies()
    let sink = _ChildSink(
      dataDescriptor: FileDescriptor(rawValue: data), controlDescriptor: FileDescriptor(rawValue: control),
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
    return sink.lostSystem ? lostSystemStatus : 0
  }

  /// An extension process whose system died (the `device load` that
  /// launched it was killed) ends at once, as iOS ends an extension whose
  /// request has no one left to answer: left running, it would go on and
  /// record an outcome over a later load's. A watcher notices the process
  /// being handed to another parent within 20 ms.
  private static func exitWhenTheSystemDies() {
    let system = getppid()
    let watcher = Thread {
      while true {
        usleep(20_000)
        if getppid() != system { _exit(lostSystemStatus) }
      }
    }
    watcher.stackSize = 64 << 10
    watcher.start()
  }
}
