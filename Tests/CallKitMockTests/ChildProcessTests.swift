import Foundation
import Testing

@testable import CallKitMock

/// Requests served by the `mockext` executable in a child process.
@Suite struct ChildProcessTests {
  let directory: TemporaryDirectory
  let device: SimulatedDevice
  let executable: String

  init() throws {
    directory = try TemporaryDirectory()
    device = try SimulatedDevice(directoryURL: directory.url)
    executable = try mockextPath()
  }

  /// Installs an extension running `mockext arguments…` and reloads it.
  func reload(
    _ arguments: [String],
    identifier: String = "child.ext",
    settings: ExtensionSettings = ExtensionSettings()
  ) throws -> ReloadReport {
    let launch = ExtensionLaunch.childProcess(executablePath: executable, arguments: arguments)
    if (try? device.status(forExtensionWithIdentifier: identifier)) == nil {
      try device.installExtension(withIdentifier: identifier, launch: launch, settings: settings)
    } else {
      try device.updateLaunch(launch, forExtensionWithIdentifier: identifier)
      try device.updateSettings(settings, forExtensionWithIdentifier: identifier)
    }
    return device.reloadExtension(withIdentifier: identifier)
  }

  func result(_ identifier: String = "child.ext") throws -> String {
    let container = try device.appGroupContainerURL(forExtensionWithIdentifier: identifier)
    return try String(contentsOf: container.appendingPathComponent("result.txt"), encoding: .utf8)
  }

  @Test func streamingLoadCommits() throws {
    let report = try reload(["range", "33100000000", "50000"])
    #expect(report.error == nil)
    #expect(report.blockingEntryCount == 50_000)
    #expect(try result().contains("expired=false"))
    let numbers = try device.blockingEntries(forExtensionWithIdentifier: "child.ext")
    #expect(numbers.first == 33_100_000_000 && numbers.last == 33_100_049_999)
    let baseline = try #require(report.childBaselineResidentBytes)
    let peak = try #require(report.childPeakResidentBytes)
    #expect(baseline > 0 && peak >= baseline)
    print("mockext child baseline VmHWM \(baseline >> 10) KiB, peak \(peak >> 10) KiB")
  }

  @Test func identificationLoadCommits() throws {
    let report = try reload(["labels", "1000", "300"])
    #expect(report.error == nil)
    let entries = try device.identificationEntries(forExtensionWithIdentifier: "child.ext")
    #expect(entries.count == 300 && entries.first == .init(number: 1000, label: "label 1000"))
  }

  @Test func memoryBudgetIsEnforced() throws {
    let settings = ExtensionSettings(memoryBudgetBytes: 48 << 20)
    #expect(try reload(["range", "1", "1000"], identifier: "budget.ext", settings: settings).error == nil)
    let before = try Data(contentsOf: try device.storeFileURL(forExtensionWithIdentifier: "budget.ext"))

    let hog = try reload(["hog", "400", "10"], identifier: "budget.ext", settings: settings)
    #expect(code(hog) == .loadingInterrupted)
    #expect((hog.error as? CXErrorCodeCallDirectoryManagerError)?.reason?.contains("memory budget") == true)
    #expect(try Data(contentsOf: try device.storeFileURL(forExtensionWithIdentifier: "budget.ext")) == before)

    // A provider that streams many more entries stays within the same budget.
    let streaming = try reload(["range", "1", "400000"], identifier: "budget.ext", settings: settings)
    #expect(streaming.error == nil)
    #expect(streaming.blockingEntryCount == 400_000)
    // Both measurements must be there: a missing one is a failure, never a growth of 0.
    let baseline = try #require(streaming.childBaselineResidentBytes)
    let peak = try #require(streaming.childPeakResidentBytes)
    #expect(baseline > 0 && peak >= baseline)
    #expect(peak - baseline < 48 << 20)
  }

  @Test func allocationBeyondTheDataLimitIsACrash() throws {
    // 1 GiB is above the RLIMIT_DATA backstop (budget + 512 MiB): the
    // allocation itself fails and the runtime traps.
    let settings = ExtensionSettings(memoryBudgetBytes: 16 << 20)
    let report = try reload(["hog", "1024", "1"], settings: settings)
    #expect(code(report) == .loadingInterrupted)
    #expect(try device.status(forExtensionWithIdentifier: "child.ext").hasStore == false)
  }

  @Test func crashIsLoadingInterrupted() throws {
    let report = try reload(["crash"])
    #expect(code(report) == .loadingInterrupted)
    #expect((report.error as? CXErrorCodeCallDirectoryManagerError)?.reason?.contains("signal 6") == true)
    #expect(try device.status(forExtensionWithIdentifier: "child.ext").hasStore == false)
  }

  @Test func validationErrorReachesTheChildsDelegate() throws {
    let report = try reload(["outoforder"])
    #expect(code(report) == .entriesOutOfOrder)
    let text = try result()
    #expect(text.contains("requestFailed=entriesOutOfOrder (3)"))
    #expect(text.contains("expired=true"))
  }

  @Test func cancelCarriesTheDomainAndCode() throws {
    let report = try reload(["cancel"])
    let error = try #require(report.error as? ExtensionCancellationError)
    #expect(error.domain == "CallDirectoryHandler" && error.code == 1)
  }

  @Test func incrementalDeltaInChild() throws {
    #expect(try reload(["range", "10", "3"]).error == nil)
    let report = try reload(["delta", "11", "20"])
    #expect(report.error == nil && report.wasIncremental)
    #expect(try device.blockingEntries(forExtensionWithIdentifier: "child.ext") == [10, 12, 20])
    #expect(try result().contains("isIncremental=true"))
  }

  @Test func silentExtensionTimesOut() throws {
    let report = try reload(["silent"], settings: ExtensionSettings(requestTimeout: 0.5))
    #expect(code(report) == .loadingInterrupted)
  }

  @Test func missingExecutableIsNotFound() throws {
    try device.installExtension(
      withIdentifier: "ghost.ext", launch: .childProcess(executablePath: "/nonexistent/mockext", arguments: []))
    #expect(code(device.reloadExtension(withIdentifier: "ghost.ext")) == .noExtensionFound)
  }

  @Test func executableNotSpeakingTheProtocolIsInterrupted() throws {
    try device.installExtension(
      withIdentifier: "echo.ext", launch: .childProcess(executablePath: "/bin/sh", arguments: ["-c", "echo hi >&3"]))
    let report = device.reloadExtension(withIdentifier: "echo.ext")
    #expect(code(report) == .loadingInterrupted)
  }

  @Test func childExecutableRefusesToRunStandalone() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["range", "1", "1"]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == CallDirectoryExtensionProcess.notLaunchedBySystemStatus)
  }
}

/// A 2,000,000-entry load through a child process, then an incremental
/// merge on top of it. Run with `CALLKITMOCK_PERF=1 swift test -c release`.
@Suite struct ChildProcessPerformanceTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CALLKITMOCK_PERF"] == "1"))
  func twoMillionEntries() throws {
    let directory = try TemporaryDirectory()
    let device = try SimulatedDevice(directoryURL: directory.url)
    let executable = try mockextPath()
    var before = rusage()
    getrusage(RUSAGE_SELF.rawValue, &before)
    print("parent maxrss before \(before.ru_maxrss) KiB")
    try device.installExtension(
      withIdentifier: "perf.ext", launch: .childProcess(executablePath: executable, arguments: ["range", "33100000000", "2000000"]))
    let full = device.reloadExtension(withIdentifier: "perf.ext")
    #expect(full.error == nil)
    try device.updateLaunch(
      .childProcess(executablePath: executable, arguments: ["delta", "33100000000", "33200000000"]),
      forExtensionWithIdentifier: "perf.ext")
    let delta = device.reloadExtension(withIdentifier: "perf.ext")
    #expect(delta.error == nil && delta.blockingEntryCount == 2_000_000)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let storeSize = try FileManager.default.attributesOfItem(
      atPath: try device.storeFileURL(forExtensionWithIdentifier: "perf.ext").path)[.size] as? Int ?? 0
    print(
      "2M full load \(full.duration) s (child peak \((full.childPeakResidentBytes ?? 0) >> 10) KiB), "
        + "incremental merge \(delta.duration) s, store \(storeSize) bytes, parent maxrss \(usage.ru_maxrss) KiB")
  }
}
