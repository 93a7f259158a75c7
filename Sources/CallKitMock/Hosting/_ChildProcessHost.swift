import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a provider in a child process and plays the system's side of the
/// wire protocol.
///
/// Memory is enforced two ways:
/// - **Polling** (the budget): every 5 ms the parent reads the child's
///   `VmHWM` (peak resident set) from `/proc/<pid>/status`; once it exceeds
///   the footprint measured when the child said hello by more than
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
        error: CXErrorCodeCallDirectoryManagerError(
          .noExtensionFound, reason: "cannot launch the extension process: \(error)"))
    }
    defer { spawned.closeDescriptors() }

    var decoder = _WireDecoder()
    var baseline: Int?
    var peak: Int?
    var completed = false
    let deadline = _monotonicSeconds() + settings.requestTimeout
    var nextSample = 0.0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)

    func interrupt(_ reason: String) {
      session.fail(.loadingInterrupted, reason)
      spawned.kill()
    }

    /// Samples the child's peak memory; interrupts it when over budget.
    func exceedsBudget() -> Bool {
      guard let memory = _ProcessMemory.read(pid: spawned.pid) else { return false }
      peak = max(peak ?? 0, memory.peakResidentBytes)
      guard let baseline, memory.peakResidentBytes - baseline > settings.memoryBudgetBytes else { return false }
      interrupt(
        "the extension process exceeded its memory budget: peak \(memory.peakResidentBytes >> 10) KiB, "
          + "baseline \(baseline >> 10) KiB, budget \(settings.memoryBudgetBytes >> 10) KiB")
      return true
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
      var descriptor = pollfd(fd: spawned.dataRead, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(pollInterval * 1000))
      if ready < 0 {
        if _currentErrno() == EINTR { continue }
        interrupt("cannot poll the extension process: errno \(_currentErrno())")
        break loop
      }
      guard ready > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { raw in read(spawned.dataRead, raw.baseAddress, raw.count) }
      if count < 0 {
        if _currentErrno() == EINTR || _currentErrno() == EAGAIN { continue }
        interrupt("cannot read from the extension process: errno \(_currentErrno())")
        break loop
      }
      if count == 0 {
        let status = spawned.waitForExit(grace: exitGrace)
        session.fail(.loadingInterrupted, "the extension process \(status) before completing the request")
        break loop
      }
      buffer.withUnsafeBytes { raw in decoder.append(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
      do {
        while let record = try decoder.next() {
          switch record {
          case .hello:
            if let memory = _ProcessMemory.read(pid: spawned.pid) {
              baseline = memory.peakResidentBytes
              peak = max(peak ?? 0, memory.peakResidentBytes)
            } else {
              baseline = 0
            }
          case .operation(.readIncremental):
            _ = session.readIncremental()
          case .operation(.complete):
            // A last look at the peak, so a child that overran its budget
            // between two polls cannot still commit.
            if exceedsBudget() { break loop }
            session.apply(.complete)
            completed = true
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

    var committed = false
    if completed {
      var reply: [UInt8]
      switch session.commit(injecting: injected) {
      case .success:
        committed = true
        reply = [0]
      case .failure(let error):
        reply = [1]
        _Varint.append(UInt64(error.code.rawValue), to: &reply)
        let reason = Array((error.reason ?? "").utf8)
        _Varint.append(UInt64(reason.count), to: &reply)
        reply.append(contentsOf: reason)
      }
      spawned.sendReply(reply)
    }
    spawned.closeControl()
    _ = spawned.waitForExit(grace: exitGrace)

    var outcome = _HostOutcome(session: session, committed: committed)
    outcome.baselineResidentBytes = baseline
    outcome.peakResidentBytes = peak
    return outcome
  }
}

/// A spawned extension process and the parent's ends of its pipes.
final class _SpawnedChild {
  let pid: pid_t
  private(set) var dataRead: Int32
  private var controlWrite: Int32
  private var exitDescription: String?

  private init(pid: pid_t, dataRead: Int32, controlWrite: Int32) {
    self.pid = pid
    self.dataRead = dataRead
    self.controlWrite = controlWrite
  }

  deinit {
    closeDescriptors()
    _ = waitForExit(grace: 0)
  }

  /// Spawns `executablePath arguments…` with the data pipe's write end as
  /// descriptor 3, the control pipe's read end as descriptor 4, stdin from
  /// `/dev/null`, and `environment` added to this process's environment.
  static func spawn(
    executablePath: String,
    arguments: [String],
    environment: [String: String],
    dataLimit: Int
  ) throws(_SystemError) -> _SpawnedChild {
    let data = try makePipe()
    let control: (read: Int32, write: Int32)
    do {
      control = try makePipe()
    } catch {
      _closeDescriptor(data.read)
      _closeDescriptor(data.write)
      throw error
    }
    defer {
      _closeDescriptor(data.write)
      _closeDescriptor(control.read)
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, data.write, _ChildEnvironment.dataDescriptorNumber)
    posix_spawn_file_actions_adddup2(&actions, control.read, _ChildEnvironment.controlDescriptorNumber)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaultSignals = sigset_t()
    sigemptyset(&defaultSignals)
    sigaddset(&defaultSignals, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var merged = ProcessInfo.processInfo.environment
    // A provider that runs out of memory traps; skip the runtime's
    // multi-page backtrace unless the caller asked for one.
    if merged["SWIFT_BACKTRACE"] == nil { merged["SWIFT_BACKTRACE"] = "enable=no" }
    for (key, value) in environment { merged[key] = value }
    let argv = ([executablePath] + arguments).map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }

    var pid: pid_t = 0
    let result = posix_spawn(&pid, executablePath, &actions, &attributes, argv, envp)
    guard result == 0 else {
      _closeDescriptor(data.read)
      _closeDescriptor(control.write)
      throw .errno("posix_spawn", executablePath, code: result)
    }
    _setDataLimit(pid: pid, bytes: dataLimit)
    return _SpawnedChild(pid: pid, dataRead: data.read, controlWrite: control.write)
  }

  /// Writes the reply to `complete`; a child that is gone is ignored.
  func sendReply(_ bytes: [UInt8]) {
    guard controlWrite >= 0 else { return }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in write(controlWrite, raw.baseAddress! + offset, raw.count - offset) }
      if written < 0 && _currentErrno() == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  func closeControl() {
    if controlWrite >= 0 { _closeDescriptor(controlWrite) }
    controlWrite = -1
  }

  func closeDescriptors() {
    closeControl()
    if dataRead >= 0 { _closeDescriptor(dataRead) }
    dataRead = -1
  }

  func kill() {
    if exitDescription == nil { _ = Glibc.kill(pid, SIGKILL) }
  }

  /// Reaps the child, killing it after `grace` seconds; describes how it
  /// ended ("exited with status 1", "was killed by signal 9").
  func waitForExit(grace: Double) -> String {
    if let exitDescription { return exitDescription }
    let deadline = _monotonicSeconds() + grace
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0 && _currentErrno() != EINTR {
        exitDescription = "exited"
        return "exited"
      }
      if _monotonicSeconds() >= deadline {
        _ = Glibc.kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && _currentErrno() == EINTR {}
        break
      }
      usleep(1_000)
    }
    let signal = status & 0x7F
    let description = signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
    exitDescription = description
    return description
  }

  /// A close-on-exec pipe whose descriptors are at least 10, so that the
  /// child's `dup2` onto 3 and 4 can never clobber one of them.
  private static func makePipe() throws(_SystemError) -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [0, 0]
    guard _pipeCloseOnExec(&descriptors) == 0 else { throw .errno("pipe2", "extension pipe") }
    var moved: [Int32] = []
    for descriptor in descriptors {
      let high = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
      _closeDescriptor(descriptor)
      guard high >= 0 else {
        moved.forEach { _closeDescriptor($0) }
        throw .errno("fcntl", "extension pipe")
      }
      moved.append(high)
    }
    return (moved[0], moved[1])
  }
}

/// Sets another process's `RLIMIT_DATA` with `prlimit(2)`, looked up at run
/// time because Glibc's Swift overlay does not import it. Best effort.
private func _setDataLimit(pid: pid_t, bytes: Int) {
  typealias Prlimit = @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prlimit") else { return }
  let prlimit = unsafeBitCast(symbol, to: Prlimit.self)
  var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
  _ = prlimit(pid, Int32(RLIMIT_DATA.rawValue), &limit, nil)
}

/// `pipe2(fds, O_CLOEXEC)`, looked up at run time because Glibc's Swift
/// overlay does not import it (a `pipe` without the flag could leak into a
/// process another thread spawns meanwhile); falls back to `pipe`.
private func _pipeCloseOnExec(_ descriptors: inout [Int32]) -> Int32 {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
  return descriptors.withUnsafeMutableBufferPointer { buffer in
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else {
      return pipe(buffer.baseAddress)
    }
    return unsafeBitCast(symbol, to: Pipe2.self)(buffer.baseAddress, O_CLOEXEC)
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
