import Testing

@testable import CalldirSystem

/// Which builds have fault injection, and what a build without it says
/// when the environment asks for faults.
@Suite struct FaultInjectionBuildTests {
  /// The tests are a debug build, which has the seam (`CALLDIR_FAULTS`);
  /// without it every fault test would pass vacuously.
  @Test func debugBuildsHaveFaultInjection() {
    #expect(FaultInjection.isCompiledIn)
    FaultInjection.install([.init(call: .stat, occurrence: 1, fault: .fail(.ioError))])
    defer { FaultInjection.reset() }
    #expect(throws: FileError.self) { _ = try FileSystem.status("/") }
  }

  /// The line a release binary writes names exactly the variables that
  /// are set and not empty, in a fixed order, and says why nothing happens.
  @Test func theNoticeNamesTheVariablesThatAreSet() {
    #expect(FaultInjection.ignoredVariablesNotice { _ in nil } == nil)
    #expect(FaultInjection.ignoredVariablesNotice { ["CALLDIR_FAULTS": ""][$0] } == nil)
    #expect(
      FaultInjection.ignoredVariablesNotice { ["CALLDIR_FAULTS": "write:1:EIO"][$0] }
        == "calldir: ignoring CALLDIR_FAULTS: this build has no fault injection"
        + " (release builds leave it out; debug builds, `swift build`, have it)\n")
    let all = [
      "CALLDIR_CHILD_FAULT_COUNTS": "/tmp/c", "CALLDIR_FAULT_COUNTS": "/tmp/p", "CALLDIR_CHILD_FAULTS": "any:1:crash",
      "CALLDIR_FAULTS": "write:1:EIO",
    ]
    #expect(
      FaultInjection.ignoredVariablesNotice { all[$0] }?.hasPrefix(
        "calldir: ignoring CALLDIR_FAULTS, CALLDIR_FAULT_COUNTS, CALLDIR_CHILD_FAULTS, CALLDIR_CHILD_FAULT_COUNTS: ")
        == true)
  }
}
