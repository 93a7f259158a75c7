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

  /// Runs one request: launches the extension process, serves the wire
  /// protocol until the request completes, is cancelled or interrupted,
  /// then commits it (a completed one) and waits for the child to exit.
  static func run(
    session: _RequestSession,
    executablePath: String,
    arguments: [String],
    identifier: String,
    containerURL: URL,
    injected: CXErrorCodeCallDirectoryManagerError.Code?
  ) -> _HostOutcome {
    _ignoreSIGPIPE()
    let spawned: _SpawnedChild
    do {
      spawned = try spawn(session, executablePath, arguments, identifier, containerURL)
    } catch {
      return _HostOutcome(
        failure: .system(
          CXErrorCodeCallDirectoryManagerError(
            .noExtensionFound, reason: "cannot launch the extension process: \(error)")))
    }
    defer { spawned.closeDescriptors() }
    let request = _HostedRequest(session: session, child: spawned)
    request.serve()
    return request.finish(injecting: injected)
  }

  /// Launches the extension process with the request's environment and
  /// its `RLIMIT_DATA` backstop.
  private static func spawn(
    _ session: _RequestSession, _ executablePath: String, _ arguments: [String], _ identifier: String,
    _ containerURL: URL
  ) throws -> _SpawnedChild {
    try _SpawnedChild.spawn(
      executablePath: executablePath,
      arguments: arguments,
      environment: [
        _ChildEnvironment.dataDescriptor: String(_ChildEnvironment.dataDescriptorNumber),
        _ChildEnvironment.controlDescriptor: String(_ChildEnvironment.controlDescriptorNumber),
        _ChildEnvironment.incremental: session.isIncrementalAvailable ? "1" : "0",
        _ChildEnvironment.identifier: identifier,
        _ChildEnvironment.container: containerURL.path,
      ],
      dataLimit: session.settings.memoryBudgetBytes + dataLimitHeadroom)
  }
}

/// The child's memory as the parent polls it: the peak resident set, and
/// the baseline (the first sample after the child said hello) the budget
/// counts from.
struct _MemoryWatch {
  /// The most the child may grow past its baseline.
  let budgetBytes: Int
  /// Whether the child said hello (samples before it set no baseline).
  var saidHello = false
  private(set) var baseline: Int?
  private(set) var peak: Int?

  /// Takes a sample of process `pid`.
  ///
  /// - Returns: Why the child is to be interrupted (over its budget); nil
  ///   when it is within it, or cannot be measured.
  mutating func sample(pid: Int32) -> String? {
    guard let memory = _ProcessMemory.read(pid: pid) else { return nil }
    peak = max(peak ?? 0, memory.peakResidentBytes)
    guard let baseline else {
      if saidHello { baseline = memory.peakResidentBytes }
      return nil
    }
    guard memory.peakResidentBytes - baseline > budgetBytes else { return nil }
    return "the extension process exceeded its memory budget: peak \(memory.peakResidentBytes >> 10) KiB, "
      + "baseline \(baseline >> 10) KiB, budget \(budgetBytes >> 10) KiB"
  }
}

/// One request served to a launched extension process: the system's side
/// of the wire protocol, the memory budget and the request's deadline.
final class _HostedRequest {
  private let session: _RequestSession
  private let child: _SpawnedChild
  private var decoder = _WireDecoder()
  private var memory: _MemoryWatch
  private let deadline: Double
  private var nextSample = 0.0
  /// Whether the child sent `complete` (and is owed a reply).
  private var completed = false

  init(session: _RequestSession, child: _SpawnedChild) {
    self.session = session
    self.child = child
    memory = _MemoryWatch(budgetBytes: session.settings.memoryBudgetBytes)
    deadline = _monotonicSeconds() + session.settings.requestTimeout
  }

  /// Reads and applies the child's records until the request ends: it
  /// completes or cancels, or the child is interrupted (over budget, past
  /// the deadline, gone, or a malformed stream), or the pipe fails.
  func serve() {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while !isOverBudgetOrLate() {
      let count: Int
      do throws(Errno) {
        guard try child.dataRead.waitUntilReadable(timeoutMilliseconds: Int(_ChildProcessHost.pollInterval * 1000))
        else { continue }
        count = try child.dataRead.read(into: buffer)
      } catch {
        pipeFailed("read", error)
        return
      }
      if count == 0 {
        let status = child.waitForExit(grace: _ChildProcessHost.exitGrace)
        session.fail(.loadingInterrupted, "the extension process \(status) before completing the request")
        return
      }
      decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      guard applyRecords() else { return }
    }
  }

  /// Commits a completed request and replies to the child, then waits for
  /// it to exit.
  func finish(injecting injected: CXErrorCodeCallDirectoryManagerError.Code?) -> _HostOutcome {
    var committed: _EntryStore.Header?
    if completed {
      let result = session.commit(injecting: injected)
      if case .success(let header) = result { committed = header }
      // A reply that cannot be written is not retried: the child then
      // knows that it does not know the outcome.
      child.sendReply(_Wire.reply(to: result.map { _ in () }))
    }
    child.closeControl()
    _ = child.waitForExit(grace: _ChildProcessHost.exitGrace)
    var outcome = _HostOutcome(session: session, committed: committed)
    outcome.baselineResidentBytes = memory.baseline
    outcome.peakResidentBytes = memory.peak
    return outcome
  }

  /// Samples memory when a poll interval has passed, and checks the
  /// deadline: true (the child interrupted) when either is exceeded.
  private func isOverBudgetOrLate() -> Bool {
    let now = _monotonicSeconds()
    if now >= nextSample {
      nextSample = now + _ChildProcessHost.pollInterval
      if exceedsBudget() { return true }
    }
    if now >= deadline {
      interrupt("the request did not end within \(session.settings.requestTimeout) seconds")
      return true
    }
    return false
  }

  /// Applies every whole record received so far.
  ///
  /// - Returns: false when the request ended (completed, cancelled, or
  ///   interrupted by a malformed stream or the memory budget).
  private func applyRecords() -> Bool {
    do {
      while let record = try decoder.next() {
        guard apply(record) else { return false }
      }
      return true
    } catch {
      interrupt("the extension process sent a malformed stream: \(error)")
      return false
    }
  }

  /// Applies one record; false when it ends the request.
  private func apply(_ record: _Wire.Record) -> Bool {
    switch record {
    case .hello:
      memory.saidHello = true
      _ = exceedsBudget()
    case .operation(.readIncremental):
      _ = session.readIncremental()
    case .operation(.complete):
      completed = true
      // A last look at the peak, so a child that overran its budget
      // between two polls cannot still commit.
      if exceedsBudget() { return false }
      session.apply(.complete)
      return false
    case .operation(let operation):
      session.apply(operation)
    case .cancel(let domain, let code, let message):
      session.apply(.cancel(domain: domain, code: code))
      if domain == CXErrorCodeCallDirectoryManagerError.errorDomain {
        session.cancel(CXErrorCodeCallDirectoryManagerError(rawCode: code, reason: message))
      } else {
        session.cancel(ExtensionCancellationError(domain: domain, code: code, message: message))
      }
      return false
    }
    return true
  }

  /// Samples the child's peak memory; interrupts it when over budget.
  private func exceedsBudget() -> Bool {
    guard let reason = memory.sample(pid: child.process.pid) else { return false }
    interrupt(reason)
    return true
  }

  private func interrupt(_ reason: String) {
    session.fail(.loadingInterrupted, reason)
    child.kill()
  }

  /// The system's own failure to talk to the extension process.
  private func pipeFailed(_ operation: String, _ error: Errno) {
    let failure = FileError(operation: operation, path: "the extension process's pipe", errno: error)
    session.failDevice("the system lost the extension process", .storage(failure.description))
    child.kill()
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
