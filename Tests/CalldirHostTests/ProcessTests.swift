import CalldirHost
import CalldirSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pipes and child processes.
@Suite struct ProcessTests {
  /// Everything readable from `descriptor` until its writers are gone.
  func readAll(_ descriptor: FileDescriptor) throws -> String {
    var bytes: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let count = try descriptor.read(into: buffer)
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func aChildGetsTheDescriptorsAndEnvironmentItIsGiven() throws {
    let pipe = try FileDescriptor.pipe()
    let writeEnd = try pipe.writeEnd.duplicate(atLeast: 10)
    try pipe.writeEnd.close()
    #expect(writeEnd.rawValue >= 10)
    let child = try ChildProcess.spawn(
      executablePath: "/bin/sh", arguments: ["-c", "printf '%s' \"$GREETING\" >&3; read line; exit 3"],
      environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"], descriptors: [3: writeEnd])
    try writeEnd.close()
    #expect(try readAll(pipe.readEnd) == "hello")
    try pipe.readEnd.close()
    // Standard input is /dev/null, so `read` ends at once.
    #expect(try child.waitForTermination() == .exited(3))
  }

  @Test func aKilledChildIsReapedAsSignaled() throws {
    let child = try ChildProcess.spawn(executablePath: "/bin/sleep", arguments: ["30"], environment: [:])
    #expect(try child.terminationIfEnded() == nil)
    child.kill()
    let termination = try child.waitForTermination()
    #expect(termination == .signaled(SIGKILL))
    #expect(termination.description == "was killed by signal 9")
  }

  @Test func aMissingExecutableIsAnErrno() {
    #expect(throws: Errno.self) {
      _ = try ChildProcess.spawn(executablePath: "/nonexistent/calldir", arguments: [], environment: [:])
    }
  }

  @Test func waitingForAnEmptyPipeTimesOut() throws {
    let pipe = try FileDescriptor.pipe()
    defer {
      try? pipe.readEnd.close()
      try? pipe.writeEnd.close()
    }
    #expect(try pipe.readEnd.waitUntilReadable(timeoutMilliseconds: 10) == false)
    try pipe.writeEnd.writeAll(Array("x".utf8))
    #expect(try pipe.readEnd.waitUntilReadable(timeoutMilliseconds: 1000) == true)
  }

  @Test func childProcessesGetTheirOwnFaultRules() {
    let parent = [
      "CALLDIR_FAULTS": "write:1:EIO", "CALLDIR_FAULT_COUNTS": "/tmp/parent", "CALLDIR_CHILD_FAULTS": "read:2:short",
      "CALLDIR_CHILD_FAULT_COUNTS": "/tmp/child", "HOME": "/root",
    ]
    #expect(
      FaultInjection.environmentForChildProcess(parent) == [
        "CALLDIR_FAULTS": "read:2:short", "CALLDIR_FAULT_COUNTS": "/tmp/child", "HOME": "/root",
      ])
    #expect(FaultInjection.environmentForChildProcess(["CALLDIR_FAULTS": "write:1:EIO"]) == [:])
  }
}
