import CalldirHost
import CalldirSystem
import Foundation

/// A spawned extension process and the parent's ends of its pipes.
final class _SpawnedChild {
  let process: ChildProcess
  let dataRead: FileDescriptor
  private var isDataOpen = true
  private var controlWrite: FileDescriptor?
  private var termination: ChildProcess.Termination?

  private init(process: ChildProcess, dataRead: FileDescriptor, controlWrite: FileDescriptor) {
    self.process = process
    self.dataRead = dataRead
    self.controlWrite = controlWrite
  }

  deinit {
    closeDescriptors()
    _ = waitForExit(grace: 0)
  }

  /// Spawns `executablePath arguments…` with the data pipe's write end as
  /// descriptor 3, the control pipe's read end as descriptor 4, stdin from
  /// `/dev/null`, and `environment` added to this process's environment
  /// (whose fault-injection rules stay with this process; see
  /// ``FaultInjection/environmentForChildProcess(_:)``).
  static func spawn(
    executablePath: String,
    arguments: [String],
    environment: [String: String],
    dataLimit: Int
  ) throws(Errno) -> _SpawnedChild {
    let data = try makePipe()
    let control: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    do {
      control = try makePipe()
    } catch {
      try? data.readEnd.close()
      try? data.writeEnd.close()
      throw error
    }
    defer {
      try? data.writeEnd.close()
      try? control.readEnd.close()
    }

    var merged = FaultInjection.environmentForChildProcess(ProcessInfo.processInfo.environment)
    // A provider that runs out of memory traps; skip the runtime's
    // multi-page backtrace unless the caller asked for one.
    if merged["SWIFT_BACKTRACE"] == nil { merged["SWIFT_BACKTRACE"] = "enable=no" }
    for (key, value) in environment { merged[key] = value }
    let process: ChildProcess
    do {
      process = try ChildProcess.spawn(
        executablePath: executablePath, arguments: arguments, environment: merged,
        descriptors: [
          _ChildEnvironment.dataDescriptorNumber: data.writeEnd,
          _ChildEnvironment.controlDescriptorNumber: control.readEnd,
        ])
    } catch {
      try? data.readEnd.close()
      try? control.writeEnd.close()
      throw error
    }
    process.limitDataSize(to: dataLimit)
    return _SpawnedChild(process: process, dataRead: data.readEnd, controlWrite: control.writeEnd)
  }

  /// Writes the reply to `complete`; a child that is gone is ignored.
  func sendReply(_ bytes: [UInt8]) {
    try? controlWrite?.writeAll(bytes)
  }

  func closeControl() {
    try? controlWrite?.close()
    controlWrite = nil
  }

  func closeDescriptors() {
    closeControl()
    if isDataOpen { try? dataRead.close() }
    isDataOpen = false
  }

  func kill() {
    if termination == nil { process.kill() }
  }

  /// Reaps the child, killing it after `grace` seconds; describes how it
  /// ended ("exited with status 1", "was killed by signal 9").
  func waitForExit(grace: Double) -> String {
    if let termination { return termination.description }
    let deadline = _monotonicSeconds() + grace
    var ended: ChildProcess.Termination?
    do throws(Errno) {
      while true {
        if let done = try process.terminationIfEnded() {
          ended = done
          break
        }
        if _monotonicSeconds() >= deadline {
          process.kill()
          ended = try process.waitForTermination()
          break
        }
        usleep(1_000)
      }
    } catch {
      // Already reaped (or never ours): nothing more to learn.
      return "exited"
    }
    termination = ended
    return ended?.description ?? "exited"
  }

  /// A close-on-exec pipe whose descriptors are at least 10, so that the
  /// child's `dup2` onto 3 and 4 can never clobber one of them.
  private static func makePipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
    let pipe = try FileDescriptor.pipe()
    defer {
      try? pipe.readEnd.close()
      try? pipe.writeEnd.close()
    }
    let readEnd = try pipe.readEnd.duplicate(atLeast: 10)
    do {
      return (readEnd, try pipe.writeEnd.duplicate(atLeast: 10))
    } catch {
      try? readEnd.close()
      throw error
    }
  }
}
