#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes chosen system calls fail, for tests: the seam every file, pipe and
/// lock operation of calldir goes through (`Internals/Syscalls.swift`).
///
/// A rule names a call (or `any` call), which occurrence of it (counted
/// from 1 since the rules were installed, across every file) and what
/// happens then: the call fails with an errno without being made (`ENOSPC`,
/// `EIO`, `EINTR`…); for `read` and `write`, moves only part of the bytes
/// (`short`); or the process is killed there with `SIGKILL` (`crash`, for a
/// tool run from a test, never in-process). A rule fires once, or, with
/// `+` after its occurrence, at that call and every later one (a disk that
/// stays full). With no rules installed the seam costs one load of a flag.
///
/// Only builds with the `CALLDIR_FAULTS` compilation condition have the
/// seam: Package.swift defines it for debug builds (what `swift build`,
/// `swift test` and the fuzz smoke run build), never for release builds
/// (what `make build` installs and an app extension embeds), whose system
/// calls go straight to the C library. There ``isCompiledIn`` is false,
/// only ``Call`` and ``Fault`` (the seam's words) remain, and
/// ``installFromEnvironment()`` says on standard error that the variables
/// are ignored.
///
/// In-process tests install rules directly; a tool run from a test takes
/// them from the environment (``installFromEnvironment()``):
///
///     CALLDIR_FAULTS=write:3:ENOSPC,fsync:1:EIO,read:2:short calldir build …
///     CALLDIR_FAULTS=write:5+:ENOSPC,fsync:5+:ENOSPC calldir build …   # full from the 5th on
///     CALLDIR_FAULTS=any:40:crash calldir prune …                      # killed at the 40th call
///     CALLDIR_FAULT_COUNTS=/tmp/counts calldir build …   # writes "write 12\nfsync 4\n…" at exit
public enum FaultInjection {
  /// The calls that can fail.
  public enum Call: String, CaseIterable, Sendable, Hashable {
    case open, read, write, fsync, rename, unlink, close, mkdir, ftruncate, flock, stat, link
    /// Every call of the kinds above, counted together: a rule on `any`
    /// fires at the Nth system call whatever it is.
    case any
  }

  /// What happens to the chosen call.
  public enum Fault: Sendable, Hashable {
    /// The call is not made; it returns -1 with this errno.
    case fail(Errno)
    /// A `read` or `write` moves at most half of the bytes (at least one).
    case short
    /// The process is killed with `SIGKILL` before the call is made, as
    /// by a power cut or `kill -9`: nothing after it runs, not even exit
    /// handlers.
    case crash
  }

  /// Whether this build has fault injection (the `CALLDIR_FAULTS`
  /// compilation condition: debug builds).
  public static var isCompiledIn: Bool {
    #if CALLDIR_FAULTS
      true
    #else
      false
    #endif
  }

  /// The variables that ask for faults or call counts (a child process's
  /// too), in the order a build without fault injection names them.
  package static let environmentVariables = [
    "CALLDIR_FAULTS", "CALLDIR_FAULT_COUNTS", "CALLDIR_CHILD_FAULTS", "CALLDIR_CHILD_FAULT_COUNTS",
  ]

  /// The line a build without fault injection writes to standard error
  /// when any of ``environmentVariables`` is set (not empty), naming
  /// those that are: none of them has any effect there, and a fault drill
  /// run on a release build must not pass without a single fault. Nil
  /// when none is set.
  package static func ignoredVariablesNotice(_ environment: (String) -> String?) -> String? {
    let set = environmentVariables.filter { !(environment($0) ?? "").isEmpty }
    guard !set.isEmpty else { return nil }
    return "calldir: ignoring \(set.joined(separator: ", ")): this build has no fault injection"
      + " (release builds leave it out; debug builds, `swift build`, have it)\n"
  }
}

#if !CALLDIR_FAULTS
  extension FaultInjection {
    /// In a build without fault injection: writes
    /// ``ignoredVariablesNotice(_:)`` to standard error when the
    /// environment asks for faults or counts; nothing else.
    public static func installFromEnvironment() {
      guard let notice = ignoredVariablesNotice(CurrentProcess.environment) else { return }
      try? FileDescriptor.standardError.writeAll(Array(notice.utf8))
    }
  }
#else
  extension FaultInjection {
    /// One planned fault.
    public struct Rule: Sendable, Hashable {
      public var call: Call
      /// Which call of that kind, from 1.
      public var occurrence: Int
      public var fault: Fault
      /// Whether the rule fires at every call from ``occurrence`` on, not
      /// only at that one.
      public var persists: Bool

      public init(call: Call, occurrence: Int, fault: Fault, persists: Bool = false) {
        self.call = call
        self.occurrence = occurrence
        self.fault = fault
        self.persists = persists
      }
    }

    /// Installs `rules` and starts counting calls from zero.
    ///
    /// - Parameter everyThread: Whether calls of every thread count and
    ///   fail (a whole process under test), or only those of the calling
    ///   thread (an in-process test, whose neighbours run concurrently).
    public static func install(_ rules: [Rule], everyThread: Bool = false) {
      state.withLock { state in
        if everyThread {
          state.process = Plan(rules: rules)
        } else {
          state.removePlan(of: pthread_self())
          state.threads.append((pthread_self(), Plan(rules: rules)))
        }
      }
      isActive = true
    }

    /// Removes the calling thread's rules (and a whole process's) and stops
    /// counting them; other threads' plans stay.
    public static func reset() {
      state.withLock { state in
        state.removePlan(of: pthread_self())
        state.process = nil
        isActive = !state.threads.isEmpty
      }
    }

    /// How many calls of each kind were made since ``install(_:)``: the
    /// calling thread's, or the whole process's.
    public static func counts() -> [Call: Int] {
      state.withLock { state in
        state.threads.first { pthread_equal($0.thread, pthread_self()) != 0 }?.plan.counts ?? state.process?.counts ?? [:]
      }
    }

    /// Installs the rules of `CALLDIR_FAULTS` and, with
    /// `CALLDIR_FAULT_COUNTS=PATH`, writes the call counts to PATH when the
    /// process exits. Malformed rules are ignored with a line on standard error.
    public static func installFromEnvironment() {
      let rules = getenv("CALLDIR_FAULTS").map { parse(String(cString: $0)) } ?? []
      let countsPath = getenv("CALLDIR_FAULT_COUNTS").map { String(cString: $0) }
      guard !rules.isEmpty || countsPath != nil else { return }
      install(rules, everyThread: true)
      if let countsPath {
        state.withLock { $0.countsPath = countsPath }
        atexit { FaultInjection.writeCounts() }
      }
    }

    /// `call:occurrence:fault` items separated by commas; the call is one
    /// of ``Call`` (`any` for every kind), the occurrence a number from 1,
    /// followed by `+` for that call and every later one, and the fault an
    /// errno name (`ENOSPC`, `EIO`, `EINTR`, `EACCES`, `EROFS`, `EDQUOT`,
    /// `ENOENT`, `EEXIST`, `EPIPE`), `short` or `crash`.
    static func parse(_ text: String) -> [Rule] {
      var rules: [Rule] = []
      for item in text.split(separator: ",") {
        let parts = item.split(separator: ":").map(String.init)
        let persists = parts.count == 3 && parts[1].hasSuffix("+")
        guard parts.count == 3, let call = Call(rawValue: parts[0]),
          let occurrence = Int(persists ? String(parts[1].dropLast()) : parts[1]), occurrence > 0,
          let fault = fault(named: parts[2])
        else {
          try? FileDescriptor.standardError.writeAll(Array("calldir: ignoring fault rule '\(item)'\n".utf8))
          continue
        }
        rules.append(Rule(call: call, occurrence: occurrence, fault: fault, persists: persists))
      }
      return rules
    }

    private static func fault(named name: String) -> Fault? {
      let errnos: [String: CInt] = [
        "ENOSPC": ENOSPC, "EIO": EIO, "EINTR": EINTR, "EACCES": EACCES, "EROFS": EROFS, "EDQUOT": EDQUOT,
        "ENOENT": ENOENT, "EEXIST": EEXIST, "EPIPE": EPIPE,
      ]
      if name == "short" { return .short }
      if name == "crash" { return .crash }
      return errnos[name].map { .fail(Errno(rawValue: $0)) }
    }

    private static func writeCounts() {
      let (counts, path) = state.withLock { ($0.process?.counts ?? [:], $0.countsPath) }
      guard let path, let file = fopen(path, "w") else { return }
      for call in Call.allCases { fputs("\(call.rawValue) \(counts[call] ?? 0)\n", file) }
      fclose(file)
    }

    // MARK: - The seam

    /// Whether any rule is installed (read without the lock: rules are
    /// installed before the work they test starts).
    nonisolated(unsafe) static var isActive = false

    /// Counts the call and returns the fault planned for it, if any; a
    /// planned crash kills the process here.
    static func fault(for call: Call) -> Fault? {
      let fault = state.withLock { state -> Fault? in
        if state.process != nil { return state.process?.count(call) }
        guard let index = state.threads.firstIndex(where: { pthread_equal($0.thread, pthread_self()) != 0 }) else {
          return nil
        }
        return state.threads[index].plan.count(call)
      }
      if fault == .crash {
        kill(getpid(), SIGKILL)
        while true { pause() }
      }
      return fault
    }

    /// The rules still to fire and the calls counted since they were installed.
    private struct Plan {
      var rules: [Rule]
      var counts: [Call: Int] = [:]

      /// Counts `call` (and ``Call/any``); returns the fault of the rule it
      /// fires, if any. A rule that does not persist is used up.
      mutating func count(_ call: Call) -> Fault? {
        let count = (counts[call] ?? 0) + 1
        counts[call] = count
        let anyCount = (counts[.any] ?? 0) + 1
        counts[.any] = anyCount
        guard
          let index = rules.firstIndex(where: { rule in
            let seen = rule.call == .any ? anyCount : rule.call == call ? count : 0
            return rule.persists ? seen >= rule.occurrence : seen == rule.occurrence
          })
        else { return nil }
        return rules[index].persists ? rules[index].fault : rules.remove(at: index).fault
      }
    }

    private struct State {
      /// Every thread's calls count (a tool run with `CALLDIR_FAULTS`).
      var process: Plan?
      /// Only the installing thread's calls count: in-process tests, each on
      /// its own thread, run side by side without touching each other's plan.
      var threads: [(thread: pthread_t, plan: Plan)] = []
      var countsPath: String?

      mutating func removePlan(of thread: pthread_t) {
        threads.removeAll { pthread_equal($0.thread, thread) != 0 }
      }
    }

    private static let state = Locked(State())
  }
#endif
