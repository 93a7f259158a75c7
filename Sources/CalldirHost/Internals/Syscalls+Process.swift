#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirSystem

// The calls behind pipes and child processes, host-only (an app extension
// never starts a process), beside the file seam in CalldirSystem's
// `Internals/Syscalls.swift`. They report failure the same way (`-1` and `errno`, for
// ``valueOrErrno(retryOnInterrupt:_:)``), so `EINTR` is retried in that one
// place; they are not fault-injectable (``FaultInjection/Call`` has no kinds
// for them). Reading, writing and closing a pipe go through the file seam.

/// `pipe2(fds, O_CLOEXEC)` where the C library has it (looked up at run
/// time: Glibc's Swift overlay does not import it), else `pipe` and
/// `FD_CLOEXEC` on both ends.
func system_pipe(_ descriptors: UnsafeMutablePointer<CInt>) -> CInt {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<CInt>?, CInt) -> CInt
  if let symbol = dlsym(_defaultLibraries, "pipe2") {
    return unsafeBitCast(symbol, to: Pipe2.self)(descriptors, O_CLOEXEC)
  }
  guard pipe(descriptors) == 0 else { return -1 }
  _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
  return 0
}

/// `fcntl(fd, F_DUPFD_CLOEXEC, minimum)`.
func system_duplicate(_ fd: CInt, atLeast minimum: CInt) -> CInt {
  fcntl(fd, F_DUPFD_CLOEXEC, minimum)
}

func system_poll(_ descriptors: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: CInt) -> CInt {
  poll(descriptors, nfds_t(count), timeout)
}

func system_waitpid(_ pid: pid_t, _ status: UnsafeMutablePointer<CInt>, _ options: CInt) -> pid_t {
  waitpid(pid, status, options)
}

/// Sets another process's `RLIMIT_DATA` with `prlimit(2)` (Linux; looked
/// up at run time because Glibc's Swift overlay does not import it).
/// Returns -1 with `ENOSYS` where there is no `prlimit`.
func system_setDataLimit(_ pid: pid_t, _ bytes: Int) -> CInt {
  #if os(Linux)
    typealias Prlimit = @convention(c) (pid_t, CInt, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> CInt
    guard let symbol = dlsym(_defaultLibraries, "prlimit") else {
      errno = ENOSYS
      return -1
    }
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    return unsafeBitCast(symbol, to: Prlimit.self)(pid, CInt(RLIMIT_DATA.rawValue), &limit, nil)
  #else
    errno = ENOSYS
    return -1
  #endif
}

func system_kill(_ pid: pid_t, _ signal: CInt) -> CInt {
  kill(pid, signal)
}

/// `RTLD_DEFAULT`: every library loaded in the process.
private var _defaultLibraries: UnsafeMutableRawPointer? {
  #if canImport(Darwin)
    UnsafeMutableRawPointer(bitPattern: -2)
  #else
    nil
  #endif
}

// The spawn handles are structs in Glibc and Musl, but `void *` typedefs on
// Darwin, which Swift imports as non-optional pointers that the C calls take
// as optionals (`posix_spawn_file_actions_t?`, initially nil).
#if canImport(Darwin)
  typealias _SpawnFileActions = posix_spawn_file_actions_t?
  typealias _SpawnAttributes = posix_spawnattr_t?
#else
  typealias _SpawnFileActions = posix_spawn_file_actions_t
  typealias _SpawnAttributes = posix_spawnattr_t
#endif

/// `posix_spawn`; returns 0 or the error number (it does not set `errno`).
func system_posix_spawn(
  _ pid: UnsafeMutablePointer<pid_t>, _ path: UnsafePointer<CChar>,
  _ actions: UnsafePointer<_SpawnFileActions>, _ attributes: UnsafePointer<_SpawnAttributes>,
  _ arguments: UnsafePointer<UnsafeMutablePointer<CChar>?>, _ environment: UnsafePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  posix_spawn(pid, path, actions, attributes, arguments, environment)
}
