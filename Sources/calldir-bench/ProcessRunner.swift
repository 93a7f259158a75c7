import Foundation
import Glibc

/// One measured run of a command.
struct Measurement {
  var seconds: Double
  /// Peak resident set size of the process, in bytes (from wait4's rusage).
  var peakBytes: Int
  var status: Int32
}

/// Runs commands with posix_spawn and measures wall time and peak RSS.
///
/// The peak RSS comes from GNU time (`/usr/bin/time -f %M`), which forks
/// from its own small process: a child spawned directly from this one would
/// inherit this process's high-water mark in its rusage.
enum ProcessRunner {
  /// Runs `arguments` (argv[0] looked up in PATH) with stdin and stdout
  /// redirected to files (or /dev/null).
  static func run(
    _ arguments: [String], stdin: String? = nil, stdout: String = "/dev/null", quiet: Bool = false,
    environment: [String: String] = [:]
  ) throws -> Measurement {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let report = NSTemporaryDirectory() + "calldir-bench-time-\(getpid())"
    let measured = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
      ? ["/usr/bin/time", "-f", "%M", "-o", report] + arguments : arguments
    let argv = measured.map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let start = DispatchTime.now()
    let code = posix_spawnp(&pid, measured[0], &actions, nil, argv, envp)
    guard code == 0 else { throw BenchError.spawn(arguments[0], code) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError.spawn(arguments[0], errno) }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    var peakKiB = Int(usage.ru_maxrss)
    if measured.count != arguments.count {
      let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
      peakKiB = text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last ?? peakKiB
      try? FileManager.default.removeItem(atPath: report)
    }
    return Measurement(seconds: seconds, peakBytes: peakKiB * 1024, status: exitStatus)
  }

  /// Runs a command `count` times and keeps the median time and the largest peak RSS.
  /// `stdout` keeps the last run's output.
  static func median(
    _ count: Int, _ arguments: [String], stdin: String? = nil, stdout: String = "/dev/null", expectStatus: Int32 = 0,
    prepare: () throws -> Void = {}
  ) throws -> Measurement {
    var runs: [Measurement] = []
    for _ in 0..<count {
      try prepare()
      let run = try run(arguments, stdin: stdin, stdout: stdout)
      guard run.status == expectStatus else { throw BenchError.failed(arguments.joined(separator: " "), run.status) }
      runs.append(run)
    }
    return middle(runs)
  }

  /// The median time of `runs` (at least one) with their highest peak RSS.
  private static func middle(_ runs: [Measurement]) -> Measurement {
    let times = runs.map(\.seconds).sorted()
    return Measurement(seconds: times[times.count / 2], peakBytes: runs.map(\.peakBytes).max() ?? 0, status: 0)
  }

  /// The medians of `count` runs each of `first` and `second`, run in
  /// turns so that both see the machine alike (its speed drifts by the
  /// minute on a shared virtual machine); `prepare` runs before each run
  /// of `first`.
  static func medians(
    _ count: Int, _ first: [String], _ second: [String], stdin: String? = nil, prepare: () throws -> Void = {}
  ) throws -> (Measurement, Measurement) {
    var firstRuns: [Measurement] = []
    var secondRuns: [Measurement] = []
    for _ in 0..<count {
      firstRuns.append(try median(1, first, stdin: stdin, prepare: prepare))
      secondRuns.append(try median(1, second, stdin: stdin))
    }
    return (middle(firstRuns), middle(secondRuns))
  }

  /// Whether a program can be found in PATH.
  static func exists(_ program: String) -> Bool {
    (try? run(["sh", "-c", "command -v \(program) >/dev/null"]).status == 0) ?? false
  }
}

enum BenchError: Error, CustomStringConvertible {
  case spawn(String, Int32)
  case failed(String, Int32)
  case data(String)

  var description: String {
    switch self {
    case .spawn(let program, let code): "cannot run \(program): \(String(cString: strerror(code)))"
    case .failed(let command, let status): "'\(command)' exited with \(status)"
    case .data(let message): message
    }
  }
}
