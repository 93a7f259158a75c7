import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import Foundation
import Testing

/// `calldir device sync` with system calls failing (`CALLDIR_FAULTS`): every
/// write, fsync and rename of a sync from version 1 to version 2 fails once,
/// in turn, on a copy of a device synced to version 1. A run either
/// succeeds with version 2 whole, or exits 74 with a clear message and the
/// sync state still at version 1; a failure while staging (or recording
/// the state) leaves every extension as it was too, one while loading
/// leaves each extension whole at version 1 or 2. The next sync succeeds.
@Suite struct DeviceSyncFaultInjectionTests {
  static let failures: [(call: String, fault: String, errorText: String)] = [
    ("write", "ENOSPC", "no space left on device"),
    ("fsync", "EIO", "input/output error"),
    ("rename", "EIO", "input/output error"),
  ]

  @Test(arguments: [false, true])
  func everyFailedCallLeavesTheDeviceWholeAndTheNextSyncSucceeds(sharded: Bool) throws {
    let directory = try TemporaryDirectory()
    let store = SyncStore(in: directory, size: 1200, maxEntriesPerExtension: sharded ? 500 : nil)
    let key = try store.publicKeyFile()
    let template = SyncDevice(path: directory.path("template"))
    try store.publish(1)
    _ = try template.synced(from: store.root, key: key)
    let before = try template.snapshot()
    try store.publish(2)
    let v2 = try inspectEntries(try store.snapshotPath(2))
    // Each extension's entries at version 1 and 2.
    var wholeExtensions: [Int: Set<String>] = [:]
    for version in [1, 2] {
      for (index, path) in try store.extensionPaths(version) { wholeExtensions[index, default: []].insert(try inspectEntries(path)) }
    }
    let shardings = Set([try store.extensionPaths(1).count, try store.extensionPaths(2).count])

    let root = store.root
    let base = directory.url.path + "/"
    /// A copy of the template device synced with `rules`, counting calls.
    @Sendable func run(_ label: String, rules: String?) throws -> (SyncDevice, CalldirProcess.Result, [String: Int]) {
      let device = SyncDevice(path: base + label)
      try FileManager.default.copyItem(atPath: template.path, toPath: device.path)
      let counts = base + label + ".counts"
      var environment = ["CALLDIR_FAULT_COUNTS": counts]
      if let rules { environment["CALLDIR_FAULTS"] = rules }
      let result = try device.sync(from: root, key: key, environment: environment)
      return (device, result, try DeviceFaultInjectionTests.counts(counts))
    }

    let (_, counted, counts) = try run("count", rules: nil)
    try #require(counted.status == 0, "\(counted.standardError)")
    var cases: [(label: String, rules: String, errorText: String)] = []
    for failure in Self.failures {
      for occurrence in 1...max(1, counts[failure.call] ?? 0) {
        cases.append(("\(failure.call)-\(occurrence)", "\(failure.call):\(occurrence):\(failure.fault)", failure.errorText))
      }
    }
    #expect(cases.count >= 20, "too few calls counted: \(counts)")

    let problems = Problems()
    let allCases = cases
    let extensionVersions = wholeExtensions
    DeviceFaultInjectionTests.forEach(cases.count, width: 4) { index in
      let item = allCases[index]
      do {
        let (device, result, _) = try run(item.label, rules: item.rules)
        let context = "\(item.rules): exit \(result.status): \(result.standardError)"
        if result.status == 0 {
          if try device.dump() != v2 || device.syncedVersion() != 2 { problems.add("\(context): not version 2 whole") }
          return
        }
        let message = result.standardError.split(separator: "\n").last.map(String.init) ?? ""
        if result.status == 74 && message.hasPrefix("error: cannot write to standard output") {
          // Synced; only printing the summary failed.
          if try device.dump() != v2 || device.syncedVersion() != 2 { problems.add("\(context): not version 2 whole") }
          return
        }
        guard result.status == 74, message.hasPrefix("error: "), message.contains(item.errorText) else {
          problems.add("\(context): not a clear I/O error")
          return
        }
        // Before the loads (staging) the device is exactly as it was.
        let staging = message.contains("/sync/staging/") || message.contains("/sync/lock")
        if staging, try device.snapshot() != before { problems.add("\(context): the device changed") }
        // The state is renamed into place before its directory is synced:
        // a failure of that last fsync leaves version 2 recorded, and held.
        let recorded = try device.syncedVersion()
        if try recorded != 1 && !(recorded == 2 && device.dump() == v2) {
          problems.add("\(context): the sync state changed")
        }
        if shardings.count == 1 {
          for (index, whole) in extensionVersions where try !whole.contains(device.dump(extension: index)) {
            problems.add("\(context): extension \(index) holds a mixture")
          }
        }
        let next = try device.sync(from: root, key: key)
        if try next.status != 0 || device.dump() != v2 || device.syncedVersion() != 2 {
          problems.add("\(context); the next sync: exit \(next.status): \(next.standardError)")
        }
      } catch {
        problems.add("\(item.rules): \(error)")
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }
}

extension DeviceSyncFaultInjectionTests {
  /// A device synced to version 1 (the template) and a store at version 2,
  /// with what a consistent device may hold after a failed sync.
  struct Fixture: Sendable {
    let root: String
    let key: String
    let base: String
    let template: String
    /// The whole dump at version 2.
    let v2: String
    /// Each extension's entries at version 1 and 2.
    let wholeExtensions: [Int: Set<String>]
    /// Whether both versions have the same extensions.
    let sameSharding: Bool

    init(_ directory: TemporaryDirectory, sharded: Bool) throws {
      let store = SyncStore(in: directory, size: 1200, maxEntriesPerExtension: sharded ? 500 : nil)
      key = try store.publicKeyFile()
      root = store.root
      base = directory.url.path + "/"
      template = base + "template"
      try store.publish(1)
      _ = try SyncDevice(path: template).synced(from: store.root, key: key)
      try store.publish(2)
      v2 = try inspectEntries(try store.snapshotPath(2))
      var whole: [Int: Set<String>] = [:]
      for version in [1, 2] {
        for (index, path) in try store.extensionPaths(version) { whole[index, default: []].insert(try inspectEntries(path)) }
      }
      wholeExtensions = whole
      sameSharding = Set([try store.extensionPaths(1).count, try store.extensionPaths(2).count]).count == 1
    }

    /// A copy of the template device synced with `rules`, counting calls.
    func run(_ label: String, rules: String?) throws -> (SyncDevice, CalldirProcess.Result, [String: Int]) {
      let device = SyncDevice(path: base + label)
      try FileManager.default.copyItem(atPath: template, toPath: device.path)
      let counts = base + label + ".counts"
      var environment = ["CALLDIR_FAULT_COUNTS": counts]
      if let rules { environment["CALLDIR_FAULTS"] = rules }
      let result = try device.sync(from: root, key: key, environment: environment, timeout: 120)
      return (device, result, (try? DeviceFaultInjectionTests.counts(counts)) ?? [:])
    }

    /// What is wrong with `device` after a sync that failed: an extension
    /// holding a mixture of versions, a recorded version its extensions do
    /// not hold; then the next plain sync must bring it to version 2.
    func problems(of device: SyncDevice, _ context: String) throws -> [String] {
      var problems: [String] = []
      let recorded = try device.syncedVersion()
      let dump = try device.dump()
      if recorded != 1 && !(recorded == 2 && dump == v2) {
        problems.append("\(context): the sync state says version \(recorded.map(String.init) ?? "none")")
      }
      if sameSharding {
        for (index, whole) in wholeExtensions where try !whole.contains(device.dump(extension: index)) {
          problems.append("\(context): extension \(index) holds a mixture")
        }
      }
      let next = try device.sync(from: root, key: key, timeout: 120)
      if try next.status != 0 || device.dump() != v2 || device.syncedVersion() != 2 {
        problems.append("\(context); the next sync: exit \(next.status): \(next.standardError)")
      }
      return problems
    }
  }

  /// The `any` calls of a sync at which the sweeps crash: every one, or
  /// an even spread of about `target` of them.
  static func occurrences(upTo count: Int, target: Int) -> [Int] {
    let stride = max(1, count / target)
    return Array(Swift.stride(from: 1, through: max(1, count), by: stride))
  }

  /// Killed (`SIGKILL`) at the Nth system call of the sync, N swept over
  /// the calls a sync makes: every extension holds version 1 or 2 whole,
  /// the recorded state is one the extensions hold, and the next plain
  /// sync brings the device to version 2.
  @Test(arguments: [false, true])
  func aSyncKilledAtAnyCallLeavesADeviceTheNextSyncTakesForward(sharded: Bool) throws {
    let directory = try TemporaryDirectory()
    let fixture = try Fixture(directory, sharded: sharded)
    let (_, counted, counts) = try fixture.run("count", rules: nil)
    try #require(counted.status == 0, "\(counted.standardError)")
    let calls = counts["any"] ?? 0
    #expect(calls >= 100, "too few calls counted: \(counts)")
    let occurrences = Self.occurrences(upTo: calls, target: 30)
    let problems = Problems()
    DeviceFaultInjectionTests.forEach(occurrences.count, width: 4) { index in
      let rules = "any:\(occurrences[index]):crash"
      do {
        let (device, result, _) = try fixture.run("crash-\(occurrences[index])", rules: rules)
        let context = "\(rules): exit \(result.status): \(result.standardError)"
        if result.timedOut { problems.add("\(context): it did not end") }
        for problem in try fixture.problems(of: device, context) { problems.add(problem) }
      } catch {
        problems.add("\(rules): \(error)")
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }

  /// A disk that stays full (every write from the Nth on fails with
  /// ENOSPC, or every fsync with EIO), N over every such call of a sync:
  /// the sync exits 74 (or 0 when it needed no more of them), and once
  /// space is back the next plain sync brings the device to version 2.
  @Test(arguments: [false, true])
  func aDiskThatStaysFullLeavesADeviceTheNextSyncTakesForward(sharded: Bool) throws {
    let directory = try TemporaryDirectory()
    let fixture = try Fixture(directory, sharded: sharded)
    let (_, counted, counts) = try fixture.run("count", rules: nil)
    try #require(counted.status == 0, "\(counted.standardError)")
    var cases: [String] = []
    for (call, fault) in [("write", "ENOSPC"), ("fsync", "EIO")] {
      for occurrence in Self.occurrences(upTo: counts[call] ?? 0, target: 20) { cases.append("\(call):\(occurrence)+:\(fault)") }
    }
    #expect(cases.count >= 10, "too few calls counted: \(counts)")
    let problems = Problems()
    let allCases = cases
    DeviceFaultInjectionTests.forEach(cases.count, width: 4) { index in
      let rules = allCases[index]
      do {
        let label = "full-" + rules.replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "+", with: "")
        let (device, result, _) = try fixture.run(label, rules: rules)
        let context = "\(rules): exit \(result.status): \(result.standardError)"
        if result.timedOut || (result.status != 74 && result.status != 0) { problems.add("\(context): not an I/O error") }
        for problem in try fixture.problems(of: device, context) { problems.add(problem) }
      } catch {
        problems.add("\(rules): \(error)")
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }
}

extension DeviceSyncFaultInjectionTests {
  /// Which process a fault is injected into.
  enum Target: String, CaseIterable, CustomTestStringConvertible {
    /// `calldir device sync` itself: the sync state, the staging area, the
    /// device's records and stores.
    case system
    /// The extension processes it spawns: the provider's state.
    case extensionProcess

    var testDescription: String { rawValue }
    var rulesVariable: String { self == .system ? "CALLDIR_FAULTS" : "CALLDIR_CHILD_FAULTS" }
    var countsVariable: String { self == .system ? "CALLDIR_FAULT_COUNTS" : "CALLDIR_CHILD_FAULT_COUNTS" }
  }

  /// A disk that stays full (every write, or every fsync, from the Nth on)
  /// and a crash at the Nth system call, in the sync and in its extension
  /// processes, for every N of a sync from version 1 to 2: whatever the
  /// exit, every extension holds exactly the entries of the version its
  /// provider state records (or is recorded as unknown, pending), a
  /// recorded sync of version 2 means every extension holds it, and the
  /// next sync, with the disk back, succeeds and leaves exactly version 2.
  @Test(arguments: [false, true], Target.allCases)
  func aDiskThatStaysFullOrACrashNeverWedgesTheDevice(sharded: Bool, target: Target) throws {
    let directory = try TemporaryDirectory()
    let store = SyncStore(in: directory, size: 1200, maxEntriesPerExtension: sharded ? 500 : nil)
    let key = try store.publicKeyFile()
    let template = SyncDevice(path: directory.path("template"))
    try store.publish(1)
    _ = try template.synced(from: store.root, key: key)
    try store.publish(2)
    let v2 = try inspectEntries(try store.snapshotPath(2))
    // Each extension's entries at each version.
    var entries: [Int: [Int: String]] = [:]
    for version in [1, 2] {
      for (index, path) in try store.extensionPaths(version) { entries[version, default: [:]][index] = try inspectEntries(path) }
    }

    let root = store.root
    let base = directory.url.path + "/"
    @Sendable func run(_ label: String, rules: String?) throws -> (SyncDevice, CalldirProcess.Result, [String: Int]) {
      let device = SyncDevice(path: base + label)
      try FileManager.default.copyItem(atPath: template.path, toPath: device.path)
      let counts = base + label + ".counts"
      var environment = [target.countsVariable: counts]
      if let rules { environment[target.rulesVariable] = rules }
      let result = try device.sync(from: root, key: key, environment: environment)
      return (device, result, (try? DeviceFaultInjectionTests.counts(counts)) ?? [:])
    }
    let (_, counted, counts) = try run("count", rules: nil)
    try #require(counted.status == 0, "\(counted.standardError)")
    var rules: [String] = []
    for occurrence in 1...max(1, counts["write"] ?? 0) { rules.append("write:\(occurrence)+:ENOSPC") }
    for occurrence in 1...max(1, counts["fsync"] ?? 0) { rules.append("fsync:\(occurrence)+:EIO") }
    // Crashes at every call of an extension process; of the sync itself,
    // at every call unsharded, at every sixth sharded (three extensions
    // make the same calls three times, and `device load`'s own sweep
    // crashes at every call of a load).
    let stride = target == .system && sharded ? 6 : 1
    for occurrence in Swift.stride(from: 1, through: counts["any"] ?? 0, by: stride) { rules.append("any:\(occurrence):crash") }
    #expect(rules.count >= 30, "too few calls counted: \(counts)")

    let problems = Problems()
    let allRules = rules
    let expected = entries
    DeviceFaultInjectionTests.forEach(allRules.count, width: 4) { index in
      let rule = allRules[index]
      do {
        let label = rule.replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "+", with: "p")
        let (device, result, _) = try run(label, rules: rule)
        let context = "\(target) \(rule): exit \(result.status): \(result.standardError)"
        // 0, 74 (the device's I/O; with every write failing, not even its
        // message gets out), 1 (the extension process died: interrupted),
        // or killed (SIGKILL: 9).
        if ![0, 1, 9, 74].contains(result.status) { problems.add("\(context): unexpected exit") }
        if let problem = try Self.disagreement(device, expected) { problems.add("\(context): \(problem)") }
        let next = try device.sync(from: root, key: key)
        // What `device dump` and `device status` show, read in-process (for speed).
        let state = try SyncStateStore(path: device.path + "/sync/state.json").load()
        if try next.status != 0 || DeviceFaultInjectionTests.state(of: device.path).dump != v2 || state?.version != 2 {
          problems.add("\(context); the next sync: exit \(next.status): \(next.standardError)")
        }
      } catch {
        problems.add("\(rule): \(error)")
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }

  /// Why the device's extensions do not hold what their records say: each
  /// extension's entries must be the entries of the version its provider
  /// state records (none when it records none), unless the state is
  /// pending (a request whose outcome is unknown: the next load resets);
  /// a sync state recording version 2 means every extension holds it.
  static func disagreement(_ device: SyncDevice, _ entries: [Int: [Int: String]]) throws -> String? {
    let simulated = try SimulatedDevice(existingDirectoryURL: URL(fileURLWithPath: device.path, isDirectory: true))
    let synced = try SyncStateStore(path: device.path + "/sync/state.json").load()
    for identifier in try simulated.installedExtensionIdentifiers() {
      guard let index = Int(identifier.split(separator: ".").last ?? "") else { continue }
      let container = try simulated.appGroupContainerURL(forExtensionWithIdentifier: identifier).path
      let state = try ProviderStateStore(path: ProviderLayout(containerPath: container).statePath).loadForPlanning()
      if state.pending != nil {
        if synced?.version == 2 { return "\(identifier) is pending under a recorded sync of version 2" }
        continue
      }
      let version = state.loaded.map { Int($0.version) }
      let held = try device.dump(extension: index)
      let expected = version.map { entries[$0]?[index] ?? "" } ?? ""
      if held != expected {
        return "\(identifier) records version \(version.map(String.init) ?? "none") but holds other entries"
      }
      if synced?.version == 2 && version != 2 {
        return "the sync records version 2, \(identifier) version \(version.map(String.init) ?? "none")"
      }
    }
    return nil
  }
}

/// Problems found by several threads.
private final class Problems: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func add(_ problem: String) { lock.withLock { list.append(problem) } }
  var all: [String] { lock.withLock { list } }
}
