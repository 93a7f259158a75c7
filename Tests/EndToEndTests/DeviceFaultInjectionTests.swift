import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation
import Testing

/// `calldir device load` with system calls failing (`CALLDIR_FAULTS`): every
/// write, fsync, rename and read of the load fails once, in turn, on a copy
/// of a device holding version 1, for a full snapshot and for a delta to
/// version 2. Each run must end with exit 74 and a clear message, leaving
/// version 1 whole (`device dump` and `device status` as before), or succeed
/// with version 2 whole; the next load must then succeed. `EINTR` and short
/// reads and writes must not change the outcome at all.
@Suite struct DeviceFaultInjectionTests {
  /// The load under test, on a device holding version 1.
  enum Scenario: String, CaseIterable, CustomTestStringConvertible {
    /// A full snapshot of version 2 (an incremental reset).
    case full
    /// The delta from version 1 to version 2.
    case delta

    var testDescription: String { rawValue }
  }

  /// Which process the faults are injected into.
  enum Target: String, CaseIterable, CustomTestStringConvertible {
    /// `calldir device load` itself: the device, its records and store.
    case system
    /// The extension process it spawns (`calldir device _extension`): the
    /// provider's state and its pipe to the system.
    case extensionProcess

    var testDescription: String { rawValue }
    var rulesVariable: String { self == .system ? "CALLDIR_FAULTS" : "CALLDIR_CHILD_FAULTS" }
    var countsVariable: String { self == .system ? "CALLDIR_FAULT_COUNTS" : "CALLDIR_CHILD_FAULT_COUNTS" }
  }

  /// The calls failed in turn, and how.
  static let failures: [(call: String, fault: String, errorText: String)] = [
    ("write", "ENOSPC", "no space left on device"),
    ("fsync", "EIO", "input/output error"),
    ("rename", "EIO", "input/output error"),
    ("read", "EIO", "input/output error"),
  ]

  /// What a device holds, as the CLI shows it.
  struct DeviceState: Equatable, Sendable, CustomStringConvertible {
    var dump: String
    var version: Int?
    var pendingVersion: Int?
    var blocking: Int?
    var identification: Int?
    var enabled: Bool?

    init(
      dump: String, version: Int? = nil, pendingVersion: Int? = nil, blocking: Int? = nil,
      identification: Int? = nil, enabled: Bool? = nil
    ) {
      self.dump = dump
      self.version = version
      self.pendingVersion = pendingVersion
      self.blocking = blocking
      self.identification = identification
      self.enabled = enabled
    }

    var description: String {
      "version \(version.map(String.init) ?? "none"), pending \(pendingVersion.map(String.init) ?? "none"), "
        + "\(blocking ?? -1) blocking, \(identification ?? -1) identification, \(dump.count) bytes of dump"
    }
  }

  /// One run of the load.
  struct Run {
    var result: CalldirProcess.Result
    var counts: [String: Int]
  }

  /// The devices and blobs of the runs (`Sendable`, for the workers).
  struct Fixture: Sendable {
    /// Where every run's device copy goes.
    let root: String
    /// A device holding version 1.
    let template: String
    let blobs: [Scenario: String]
    /// The state of `template`.
    let before: DeviceState
    /// The state of a device holding version 2.
    let after: DeviceState

    func path(_ name: String) -> String { root + "/" + name }
  }

  let directory: TemporaryDirectory
  let fixture: Fixture

  init() throws {
    directory = try TemporaryDirectory()
    let v1 = sampleSnapshot(version: 1, count: 200)
    var v2 = v1
    v2.version = 2
    v2.blocking.removeFirst(20)
    v2.blocking.append(contentsOf: [44_000_000_000, 44_000_000_007])
    v2.identification[4].label = "Relabelled"
    let full1 = try directory.full("v1.cdir", v1)
    let full2 = try directory.full("v2.cdir", v2)
    let blobs = [Scenario.full: full2, .delta: try directory.delta("v1-v2.cdir", from: v1, to: v2)]
    let template = directory.path("template")
    let load = try CalldirProcess.run(["device", "load", "--device", template, full1])
    try #require(load.status == 0, "\(load.standardError)")
    let before = try Self.state(of: template)
    // What the runs check in-process (for speed) is what the CLI shows.
    try #require(try Self.shownState(of: template) == before)
    let after = DeviceState(
      dump: try CalldirProcess.run(["inspect", "--entries", full2]).standardOutput, version: 2,
      pendingVersion: nil, blocking: v2.blocking.count, identification: v2.identification.count, enabled: true)
    try #require(before.version == 1 && before.dump != after.dump)
    fixture = Fixture(root: directory.url.path, template: template, blobs: blobs, before: before, after: after)
  }

  @Test(.serialized, arguments: Scenario.allCases, Target.allCases)
  func everyFailedCallLeavesAWholeVersion(_ scenario: Scenario, _ target: Target) throws {
    let fixture = self.fixture
    let blob = try #require(fixture.blobs[scenario])
    let counted = try Self.load(fixture, blob, target: target, rules: nil, label: "count")
    #expect(counted.result.status == 0, "\(counted.result.standardError)")

    var planned: [(label: String, rules: String, call: String, occurrence: Int, errorText: String)] = []
    for failure in Self.failures {
      for occurrence in (0..<(counted.counts[failure.call] ?? 0)).map({ $0 + 1 }) {
        planned.append(
          ("\(failure.call)-\(occurrence)", "\(failure.call):\(occurrence):\(failure.fault)", failure.call, occurrence,
           failure.errorText))
      }
    }
    let cases = planned
    #expect(cases.count >= (target == .system ? 20 : 5), "too few calls counted: \(counted.counts)")

    let outcomes = Outcomes()
    // Four at a time: the loads wait on fsync as much as on the cores.
    Self.forEach(cases.count, width: 4) { index in
      let item = cases[index]
      do {
        let device = fixture.path(item.label)
        let run = try Self.load(fixture, blob, target: target, rules: item.rules, label: item.label)
        let fired = (run.counts[item.call] ?? 0) >= item.occurrence
        let state = try Self.state(of: device)
        let status = run.result.status
        let message = run.result.standardError
        let lastLine = message.split(separator: "\n").last.map(String.init) ?? ""
        let context = "\(scenario) \(target) \(item.rules): exit \(status), \(state): \(message)"
        if status == 0 {
          // Absorbed (a failed memory sample, a reply the provider state
          // was repaired after) or not reached: version 2 whole.
          outcomes.record(failed: false, context: context, ok: state == fixture.after)
          if fired { outcomes.absorb(item.rules) }
        } else if status == 74 && lastLine.hasPrefix("error: cannot write to standard output") {
          // The load committed; only printing its report failed: the device
          // holds version 2 whole, and says so.
          outcomes.record(failed: false, context: context, ok: state == fixture.after)
        } else {
          let clear =
            (status == 74 && lastLine.hasPrefix("error: ") && lastLine.contains(item.errorText))
            || (target == .extensionProcess && status == 1 && message.hasSuffix("error: loadingInterrupted (2)\n"))
          outcomes.record(failed: true, context: context, ok: fired && clear && state == fixture.before)
          if fired && clear { outcomes.fail(item.call) }
          let next = try CalldirProcess.run(["device", "load", "--device", device, blob])
          let recovered = try Self.state(of: device)
          outcomes.record(
            failed: false, context: "\(context); next load: exit \(next.status) \(recovered)",
            ok: next.status == 0 && recovered == fixture.after)
        }
      } catch {
        outcomes.record(failed: false, context: "\(scenario) \(target) \(item.rules): \(error)", ok: false)
      }
    }
    for problem in outcomes.problems { Issue.record(Comment(rawValue: problem)) }
    // Nothing of the system process absorbs a failed sync or rename (reads
    // of memory samples and the reply to the extension can be absorbed).
    if target == .system {
      for call in ["fsync", "rename"] {
        #expect(outcomes.failures(of: call) == counted.counts[call], "\(call): \(outcomes.absorbed)")
      }
    }
    print(
      "\(scenario) \(target): \(cases.count) faults, \(outcomes.failedRuns) failed cleanly, absorbed: "
        + outcomes.absorbed.sorted().joined(separator: " "))

    // EINTR on every other call of each kind, and short reads and writes:
    // retried and resumed, the load succeeds as without them.
    for (label, fault, calls) in [("interrupted", "EINTR", ["write", "fsync", "rename", "read"]), ("short", "short", ["write", "read"])] {
      let rules = calls.flatMap { call in
        stride(from: 1, through: 2 * (counted.counts[call] ?? 0) + 1, by: 2).map { "\(call):\($0):\(fault)" }
      }
      let run = try Self.load(fixture, blob, target: target, rules: rules.joined(separator: ","), label: label)
      #expect(run.result.status == 0, "\(label): \(run.result.standardError)")
      #expect(try Self.shownState(of: fixture.path(label)) == fixture.after, "\(label)")
    }
  }

  /// A disk that stays full (every write, or every fsync, from the Nth on)
  /// and a crash at the Nth system call, for every N, in `device load` and
  /// in its extension process. Whatever the exit, the extension holds
  /// version 1 or version 2 whole, and its provider state records which
  /// (or records the request as pending: its outcome unknown, so that the
  /// next load resets). A load that exits 0 left version 2. The next load
  /// then succeeds: of the same blob, or, when the outcome is unknown, of
  /// the full snapshot (a delta needs a known base).
  @Test(.serialized, arguments: Scenario.allCases, Target.allCases)
  func aDiskThatStaysFullOrACrashLeavesAWholeRecordedVersion(_ scenario: Scenario, _ target: Target) throws {
    let fixture = self.fixture
    let blob = try #require(fixture.blobs[scenario])
    let counted = try Self.load(fixture, blob, target: target, rules: nil, label: "count-persistent")
    #expect(counted.result.status == 0, "\(counted.result.standardError)")
    var rules: [String] = []
    for occurrence in 1...max(1, counted.counts["write"] ?? 0) { rules.append("write:\(occurrence)+:ENOSPC") }
    for occurrence in 1...max(1, counted.counts["fsync"] ?? 0) { rules.append("fsync:\(occurrence)+:EIO") }
    for occurrence in 1...max(1, counted.counts["any"] ?? 0) { rules.append("any:\(occurrence):crash") }
    #expect(rules.count >= (target == .system ? 100 : 30), "too few calls counted: \(counted.counts)")

    let full = try #require(fixture.blobs[.full])
    let outcomes = Outcomes()
    let cases = rules
    Self.forEach(cases.count, width: 4) { index in
      let rule = cases[index]
      do {
        let label = "\(scenario)-" + rule.replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "+", with: "p")
        let run = try Self.load(fixture, blob, target: target, rules: rule, label: label)
        let device = fixture.path(label)
        let state = try Self.state(of: device)
        let status = run.result.status
        let context = "\(scenario) \(target) \(rule): exit \(status), \(state): \(run.result.standardError)"
        let whole = state.dump == fixture.before.dump || state.dump == fixture.after.dump
        let recorded =
          state.pendingVersion != nil
          || (state.version == 1 && state.dump == fixture.before.dump)
          || (state.version == 2 && state.dump == fixture.after.dump)
        // 0 (then version 2, recorded), 74 (the device's I/O; with every
        // write failing, not even its message gets out), 1 (the extension
        // process died: interrupted) or killed (SIGKILL: 9).
        let exit = status == 0 ? state == fixture.after : [1, 9, 74].contains(status)
        outcomes.record(failed: status != 0, context: context, ok: whole && recorded && exit)
        let next = try CalldirProcess.run(
          ["device", "load", "--device", device, state.pendingVersion == nil ? blob : full])
        let recovered = try Self.state(of: device)
        outcomes.record(
          failed: false, context: "\(context); next load: exit \(next.status) \(recovered): \(next.standardError)",
          ok: next.status == 0 && recovered == fixture.after)
      } catch {
        outcomes.record(failed: false, context: "\(scenario) \(target) \(rule): \(error)", ok: false)
      }
    }
    for problem in outcomes.problems { Issue.record(Comment(rawValue: problem)) }
    print("\(scenario) \(target): \(cases.count) persistent faults and crashes, \(outcomes.failedRuns) failed whole")
  }

  /// Calls `body` for every index in `0..<count`, `width` at a time.
  static func forEach(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let slots = DispatchSemaphore(value: width)
    let group = DispatchGroup()
    for index in 0..<count {
      slots.wait()
      group.enter()
      Thread.detachNewThread {
        body(index)
        slots.signal()
        group.leave()
      }
    }
    group.wait()
  }

  /// Copies the template device to `label` and loads `blob` into it with
  /// `rules`, counting the target's calls.
  static func load(_ fixture: Fixture, _ blob: String, target: Target, rules: String?, label: String) throws -> Run {
    let device = fixture.path(label)
    try FileManager.default.copyItem(atPath: fixture.template, toPath: device)
    let counts = fixture.path(label + ".counts")
    var environment = [target.countsVariable: counts]
    if let rules { environment[target.rulesVariable] = rules }
    let result = try CalldirProcess.run(["device", "load", "--device", device, blob], environment: environment)
    // A process killed by a planned crash writes no counts.
    return Run(result: result, counts: rules?.hasSuffix(":crash") == true ? [:] : try Self.counts(counts))
  }

  /// The `call count` lines a process wrote at exit.
  static func counts(_ path: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
    }
    return counts
  }

  /// What `device dump` and `device status` show, read in-process with
  /// the same calls.
  static func state(of path: String) throws -> DeviceState {
    let device = try SimulatedDevice(directoryURL: URL(fileURLWithPath: path, isDirectory: true))
    let identifiers = try device.installedExtensionIdentifiers()
    var dump = ""
    try device.forEachMergedEntry(
      inExtensionsWithIdentifiers: identifiers, blocking: { dump += "block\t\($0)\n" },
      identification: { dump += "identify\t\($0.number)\t\($0.label)\n" })
    guard let identifier = identifiers.first else { return DeviceState(dump: dump) }
    let status = try device.status(forExtensionWithIdentifier: identifier)
    let container = try device.appGroupContainerURL(forExtensionWithIdentifier: identifier).path
    let state = try ProviderStateStore(path: ProviderLayout(containerPath: container).statePath).loadForPlanning()
    return DeviceState(
      dump: dump, version: state.loaded.map { Int($0.version) }, pendingVersion: state.pending.map { Int($0.version) },
      blocking: status.blockingEntryCount, identification: status.identificationEntryCount, enabled: status.isEnabled)
  }

  /// What `calldir device dump` and `calldir device status` print.
  static func shownState(of device: String) throws -> DeviceState {
    let dump = try CalldirProcess.run(["device", "dump", "--device", device])
    try #require(dump.status == 0, "\(dump.standardError)")
    let status = try CalldirProcess.run(["device", "status", "--device", device, "--json"])
    try #require(status.status == 0, "\(status.standardError)")
    let info = try extensions(status.standardOutput).first
    return DeviceState(
      dump: dump.standardOutput, version: info?["version"] as? Int, pendingVersion: info?["pendingVersion"] as? Int,
      blocking: info?["blocking"] as? Int, identification: info?["identification"] as? Int,
      enabled: info?["enabled"] as? Bool)
  }
}

/// What the concurrent runs found.
private final class Outcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var _problems: [String] = []
  private var _failedRuns = 0

  private var _absorbed: [String] = []
  private var _failuresByCall: [String: Int] = [:]

  var problems: [String] { lock.withLock { _problems } }
  /// The faults after which the load still succeeded.
  var absorbed: [String] { lock.withLock { _absorbed } }

  func absorb(_ rule: String) {
    lock.withLock { _absorbed.append(rule) }
  }

  /// How many faults of `call` ended the load cleanly.
  func failures(of call: String) -> Int {
    lock.withLock { _failuresByCall[call, default: 0] }
  }

  func fail(_ call: String) {
    lock.withLock { _failuresByCall[call, default: 0] += 1 }
  }
  var failedRuns: Int { lock.withLock { _failedRuns } }

  func record(failed: Bool, context: String, ok: Bool) {
    lock.withLock {
      if failed && ok { _failedRuns += 1 }
      if !ok { _problems.append(context) }
    }
  }
}
