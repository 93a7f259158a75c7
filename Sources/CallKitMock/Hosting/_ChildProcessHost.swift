import CalldirHost
import CalldirSystem
import Foundation

/// Runs a provider in a child process and plays the system's side of the
/// wire protocol.
///
/// Memory is enforced two ways:
/// - **Polling** (the budget): every 5 ms the parent reads the child's
///   `VmHWM` (peak resident set) from `/proc/<pid>/status`; once it exceeds
///   the footprint measured when the child said hello (at the first sample
///   that succeeds from then on) by more than
///   ``ExtensionSettings/memoryBudgetBytes``, the child is killed with
///   `SIGKILL`. Resident memory is what iOS's jetsam counts, and measuring
///   from the hello makes the budget independent of the executable's own
///   runtime footprint (Foundation, ICU…).
/// - **`RLIMIT_DATA`** (a backstop): set with `prlimit` right after the spawn
///   to the budget plus 512 MiB, so an allocation burst between two polls
///   cannot take the host down; a failed allocation makes the Swift runtime
///   trap, which the parent sees as a crash. `RLIMIT_AS` is not used: a
///   Swift process maps 70–210 MiB of address space (libraries, glibc's
///   64 MiB per-thread malloc arenas) before doing anything, so it cannot
///   express a budget.
///
/// Once the child sent `complete`, it always gets a reply (committed, or
/// failed with the error); a child that gets none cannot know the outcome
/// and ends without reporting one (see ``CallDirectoryExtensionProcess``).
enum _ChildProcessHost {
  /// The `RLIMIT_DATA` headroom above the budget.
  static let dataLimitHeadroom = 512 << 20
  /// How often memory is sampled, in seconds.
  static let pollInterval = 0.005
  /// How long a child may take to exit after the request ended.
  static let exitGrace = 5.0

  static func run(
    session: _RequestSession,
    executablePath: String,
    arguments: [String],
    identifier: String,
    containerURL: URL,
    injected: CXErrorCodeCallDirectoryManagerError.Code?
  ) -> _HostOutcome {
    _ignoreSIGPIPE()
    let settings = session.settings
    let spawned: _SpawnedChild
    do {
      spawned = try _SpawnedChild.spawn(
        executablePath: executablePath,
        arguments: arguments,
        environment: [
          _ChildEnvironment.dataDescriptor: String(_ChildEnvironment.dataDescriptorNumber),
          _ChildEnvironment.controlDescriptor: String(_ChildEnvironment.controlDescriptorNumber),
          _ChildEnvironment.incremental: session.isIncrementalAvailable ? "1" : "0",
          _ChildEnvironment.identifier: identifier,
          _ChildEnvironment.container: containerURL.path,
        ],
        dataLimit: settings.memoryBudgetBytes + dataLimitHeadroom)
    } catch {
      return _HostOutcome(
        failure: .system(
          CXErrorCodeCallDirectoryManagerError(
            .noExtensionFound, reason: "cannot launch the extension process: \(error)")))
    }
    defer { spawned.closeDescriptors() }

    var decoder = _WireDecoder()
    var saidHello = false
    var baseline: Int?
    var peak: Int?
    var completed = false
    let deadline = _monotonicSeconds() + settings.requestTimeout
    var nextSample = 0.0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }

    func interrupt(_ reason: String) {
      session.fail(.loadingInterrupted, reason)
      spawned.kill()
    }

    /// Samples the child's peak memory; interrupts it when over budget.
    /// The first sample after the hello is the baseline.
    func exceedsBudget() -> Bool {
      guard let memory = _ProcessMemory.read(pid: spawned.process.pid) else { return false }
      peak = max(peak ?? 0, memory.peakResidentBytes)
      guard let baseline else {
        if saidHello { baseline = memory.peakResidentBytes }
        return false
      }
      guard memory.peakResidentBytes - baseline > settings.memoryBudgetBytes else { return false }
      interrupt(
        "the extension process exceeded its memory budget: peak \(memory.peakResidentBytes >> 10) KiB, "
          + "baseline \(baseline >> 10) KiB, budget \(settings.memoryBudgetBytes >> 10) KiB")
      return true
    }

    /// The system's own failure to talk to the extension process.
    func pipeFailed(_ operation: String, _ error: Errno) {
      let failure = FileError(operation: operation, path: "the extension process's pipe", errno: error)
      session.failDevice("the system lost the extension process", .storage(failure.description))
      spawned.kill()
    }

    loop: while true {
      let now = _monotonicSeconds()
      if now >= nextSample {
        nextSample = now + pollInterval
        if exceedsBudget() { break loop }
      }
      if now >= deadline {
        interrupt("the request did not end within \(settings.requestTimeout) seconds")
        break loop
      }
      let count: Int
      do throws(Errno) {
        guard try spawned.dataRead.waitUntilReadable(timeoutMilliseconds: Int(pollInterval * 1000)) else { continue }
        count = try spawned.dataRead.read(into: buffer)
      } catch {
        pipeFailed("read", error)
        break loop
      }
      if count == 0 {
        let status = spawned.waitForExit(grace: exitGrace)
        session.fail(.loadingInterrupted, "the extension process \(status) before completing the request")
        break loop
      }
      decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      do {
        while let record = try decoder.next() {
          switch record {
          case .hello:
            saidHello = true
            _ = exceedsBudget()
          case .operation(.readIncremental):
            _ = session.readIncremental()
          case .operation(.complete):
            completed = true
            // A last look at the peak, so a child that overran its budget
            // between two polls cannot still commit.
            if exceedsBudget() { break loop }
            session.apply(.complete)
            break loop
          case .operation(let operation):
            session.apply(operation)
          case .cancel(let domain, let code, let message):
            session.apply(.cancel(domain: domain, code: code))
            if domain == CXErrorCodeCallDirectoryManagerError.errorDomain {
              session.cancel(CXErrorCodeCallDirectoryManagerError(rawCode: code, reason: message))
            } else {
              session.cancel(ExtensionCancellationError(domain: domain, code: code, message: message))
            }
            break loop
          }
        }
      } catch {
        interrupt("the extension process sent a malformed stream: \(error)")
        break loop
      }
    }

    var committed: _EntryStore.Header?
    if completed {
      let result = session.commit(injecting: injected)
      if case .success(let header) = result { committed = header }
      // A reply that cannot be written is not retried: the child then
      // knows that it does not know the outcome.
      spawned.sendReply(_Wire.reply(to: result.map { _ in () }))
    }
    spawned.closeControl()
    _ = spawned.waitForExit(grace: exitGrace)

    var outcome = _HostOutcome(session: session, committed: committed)
    outcome.baselineResidentBytes = baseline
    outcome.peakResidentBytes = peak
    return outcome
  }
}

/// Ignores `SIGPIPE` in this process (once), so that writing to an extension
/// process that died returns `EPIPE` instead of killing the system process.
func _ignoreSIGPIPE() {
  _ = _sigpipeIgnored
}

private let _sigpipeIgnored: Bool = {
  signal(SIGPIPE, SIG_IGN)
  return true
}()
