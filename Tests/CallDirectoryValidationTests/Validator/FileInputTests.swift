import CallDirectoryFormat
import CalldirSystem
import Testing
@testable import CallDirectoryValidation

@Suite struct FileInputTests {
  @Test func missingFile() throws {
    #expect {
      _ = try validate(path: "/nonexistent/calldir/list.txt")
    } throws: { error in
      guard let error = error as? ValidationError, case .cannotRead(let file) = error else { return false }
      return file.errno == .noSuchFileOrDirectory && error.isMissingInput
        && error.description == "cannot open /nonexistent/calldir/list.txt: no such file or directory"
    }
  }

  @Test func directoryIsMissingInput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect {
      _ = try validate(path: directory.path)
    } throws: { error in
      guard let error = error as? ValidationError, case .cannotRead(let file) = error else { return false }
      return file.errno == .isDirectory && error.isMissingInput
        && error.description == "cannot read \(directory.path): is a directory"
    }
  }

  /// A valid 1M-line file streams through `validate(path:)` (memory is
  /// measured by hand, not here).
  @Test func millionLineTextFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16_000_000)
    var number: Int64 = 10_000_000_000
    for index in 0..<1_000_000 {
      number += Int64(1 + index % 97)
      bytes.append(contentsOf: String(number).utf8)
      if index % 10 == 0 { bytes.append(contentsOf: "\tLabel \(index % 7)".utf8) }
      if index % 3 == 0 { bytes.append(0x0D) }
      bytes.append(0x0A)
    }
    let path = try directory.write("big.txt", bytes)
    let outcome = try validate(path: path)
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.isValid)
    #expect(outcome.summary.entries == 1_000_000)
    #expect(outcome.summary.lists == [
      ListCount(list: .blocking, entries: 900_000), ListCount(list: .identification, entries: 100_000),
    ])

    // One violation near the end, past many 1 MiB chunk boundaries.
    bytes.append(contentsOf: "5\n".utf8)
    let broken = try directory.write("broken.txt", bytes)
    let result = try validate(path: broken)
    #expect(result.kinds == [.outOfOrder])
    #expect(result.lines == [1_000_001])
  }

  @Test func truncationCountsEverything() throws {
    let text = (0..<100).map { _ in "x" }.joined(separator: "\n")
    let limited = try validate(text, maxReported: 5)
    #expect(limited.violations.count == 5)
    #expect(limited.lines == [1, 2, 3, 4, 5])
    #expect(limited.summary.errorCount == 100)
    #expect(limited.summary.reportedCount == 5)
    #expect(limited.summary.isTruncated)

    let none = try validate(text, maxReported: 0)
    #expect(none.violations.isEmpty)
    #expect(none.summary.isTruncated)

    let all = try validate(text, maxReported: nil)
    #expect(all.violations.count == 100)
    #expect(!all.summary.isTruncated)

    let exact = try validate(text, maxReported: 100)
    #expect(!exact.summary.isTruncated)
  }
}
