#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirSystem

/// A process this one started with `posix_spawn`, and the calls that
/// signal and reap it.
///
///     let (readEnd, writeEnd) = try FileDescriptor.pipe()
///     let child = try ChildProcess.spawn(
///       executablePath: "/usr/bin/env", arguments: [], environment: [:],
///       descriptors: [1: writeEnd])
///     try writeEnd.close()
///     … read readEnd …
///     let termination = try child.waitForTermination()
public struct ChildProcess: Hashable, Sendable {
  /// The process id.
  public let pid: pid_t

  /// How a child process ended.
  public enum Termination: Hashable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(CInt)
    /// A signal ended it.
    case signaled(CInt)

    /// `exited with status 1`, `was killed by signal 9`.
    public var description: String {
      switch self {
      case .exited(let status): "exited with status \(status)"
      case .signaled(let signal): "was killed by signal \(signal)"
      }
    }

    init(waitStatus status: CInt) {
      let signal = status & 0x7F
      self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
  }

  /// Starts `executablePath arguments…` with exactly `environment`.
  ///
  /// - Parameters:
  ///   - descriptors: Descriptors the child gets, by their number in the
  ///     child (`dup2`); the parent's copies stay open. Pass numbers that
  ///     cannot clash with the sources (see
  ///     ``FileDescriptor/duplicate(atLeast:)``).
  ///   - standardInputFromNullDevice: Whether descriptor 0 reads `/dev/null`.
  ///   - defaultSignals: Signals whose handling is reset to the default in
  ///     the child (a parent that ignores `SIGPIPE` passes it here); the
  ///     child starts with no signal blocked.
  /// - Throws: The `posix_spawn` error, as an ``Errno``.
  public static func spawn(
    executablePath: String,
    arguments: [String],
    environment: [String: String],
    descriptors: [CInt: FileDescriptor] = [:],
    standardInputFromNullDevice: Bool = true,
    defaultSignals: [CInt] = [SIGPIPE]
  ) throws(Errno) -> ChildProcess {
    #if canImport(Darwin)
      var actions: _SpawnFileActions = nil
      var attributes: _SpawnAttributes = nil
    #else
      var actions = _SpawnFileActions()
      var attributes = _SpawnAttributes()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
      posix_spawn_file_actions_adddup2(&actions, source.rawValue, target)
    }
    if standardInputFromNullDevice {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }

    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var resetSignals = sigset_t()
    sigemptyset(&resetSignals)
    for signal in defaultSignals { sigaddset(&resetSignals, signal) }
    posix_spawnattr_setsigdefault(&attributes, &resetSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executablePath] + arguments).map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = executablePath.withCString { path in
      system_posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    }
    guard result == 0 else { throw Errno(rawValue: result) }
    return ChildProcess(pid: pid)
  }

  /// Sends `signal`; a process that is already gone is fine. The
  /// corresponding C call is `kill`.
  public func send(_ signal: CInt) {
    _ = system_kill(pid, signal)
  }

  /// Kills the process with `SIGKILL`.
  public func kill() {
    send(SIGKILL)
  }

  /// Reaps the process if it has ended; nil while it runs. The
  /// corresponding C call is `waitpid(WNOHANG)`.
  public func terminationIfEnded() throws(Errno) -> Termination? {
    var status: CInt = 0
    let reaped = try valueOrErrno { system_waitpid(pid, &status, WNOHANG) }.get()
    return reaped == pid ? Termination(waitStatus: status) : nil
  }

  /// Waits for the process to end and reaps it. The corresponding C call
  /// is `waitpid`.
  public func waitForTermination() throws(Errno) -> Termination {
    var status: CInt = 0
    _ = try valueOrErrno { system_waitpid(pid, &status, 0) }.get()
    return Termination(waitStatus: status)
  }

  /// Caps the process's data segment (`RLIMIT_DATA`) at `bytes`, so that
  /// an allocation burst fails in the child instead of exhausting the
  /// machine. Best effort: does nothing where `prlimit` is missing.
  public func limitDataSize(to bytes: Int) {
    _ = system_setDataLimit(pid, bytes)
  }
}
