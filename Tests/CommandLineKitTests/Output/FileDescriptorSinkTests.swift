import CalldirSystem
import CalldirTestSupport
@testable import CommandLineKit
import Foundation
import Testing

@Suite struct FileDescriptorSinkTests {
  /// Creates an empty temporary file, passes its path and a write descriptor, then removes it.
  private func withTemporaryFile(_ body: (String, Int32) throws -> Void) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("out.txt")
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    try body(path, fd)
  }

  @Test func buffersAndWritesEverything() throws {
    try withTemporaryFile { path, fd in
      let sink = FileDescriptorSink(fileDescriptor: fd, bufferCapacity: 1000)
      var expected = ""
      for number in 0..<50_000 {
        let line = "+1\(number)\n"
        sink.write(line)
        expected += line
      }
      let big = String(repeating: "x", count: 5000) + "\n"
      sink.write(big)
      expected += big
      sink.writeJSONLine(["k": "v"])
      expected += "{\"k\":\"v\"}\n"
      try sink.flush()
      #expect(sink.isWritable)
      #expect(!sink.isTerminal)
      let written = try String(contentsOfFile: path, encoding: .utf8)
      #expect(written.utf8.count == expected.utf8.count)
      #expect(written == expected)
    }
  }

  @Test func holdsOutputUntilFlushed() throws {
    try withTemporaryFile { path, fd in
      let sink = FileDescriptorSink(fileDescriptor: fd)
      sink.write("hello\n")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
      try sink.flush()
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello\n")
    }
  }

  @Test func brokenPipeEndsOutputQuietly() throws {
    CurrentProcess.ignoreBrokenPipes()
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    close(fds[0])
    defer { close(fds[1]) }
    let sink = FileDescriptorSink(fileDescriptor: fds[1], bufferCapacity: 64)
    sink.write(String(repeating: "y", count: 200))
    #expect(!sink.isWritable)
    sink.write("more")
    #expect(throws: Never.self) { try sink.flush() }
  }

  @Test func otherWriteFailuresAreReportedByFlush() throws {
    let fd = open("/dev/null", O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    let sink = FileDescriptorSink(fileDescriptor: fd)
    sink.write("data")
    #expect(throws: OutputError.writeFailed(fileDescriptor: fd, errno: EBADF)) { try sink.flush() }
    #expect(!sink.isWritable)
    #expect(OutputError.writeFailed(fileDescriptor: 1, errno: ENOSPC).message
      == "cannot write to standard output: no space left on device")
    #expect(OutputError.writeFailed(fileDescriptor: 1, errno: ENOSPC).exitCode == .ioError)
  }

  @Test func failedStandardOutputMakesTheRunAnIOError() throws {
    let fd = open("/dev/null", O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    let output = FileDescriptorSink(fileDescriptor: fd)
    let error = MemorySink()
    let code = CommandLineTool.run(
      root: SampleTool.self, arguments: ["--version"], standardOutput: output, standardError: error)
    #expect(code == .ioError)
    #expect(error.text.hasPrefix("error: cannot write to file descriptor \(fd): "))
  }
}
