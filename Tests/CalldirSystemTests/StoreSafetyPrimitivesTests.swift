import CalldirSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time grammar every writer and reader shares, exclusive links, and
/// the temporary files a killed process left.
@Suite struct StoreSafetyPrimitivesTests {
  @Test func onlyFourDigitYearsAreWrittenAndRead() {
    #expect(UTCTime.iso8601(UTCTime.latest) == "9999-12-31T23:59:59Z")
    #expect(UTCTime.iso8601(UTCTime.earliest) == "0001-01-01T00:00:00Z")
    #expect(UTCTime.parse("9999-12-31T23:59:59Z") == UTCTime.latest)
    #expect(UTCTime.parse("0001-01-01T00:00:00Z") == UTCTime.earliest)
    #expect(UTCTime.checkedISO8601(UTCTime.latest + 1) == nil)
    #expect(UTCTime.checkedISO8601(UTCTime.earliest - 1) == nil)
    #expect(UTCTime.checkedISO8601(0) == "1970-01-01T00:00:00Z")
    // What `build --as-of 9999-12-31` with a week's lifetime used to sign.
    #expect(UTCTime.iso8601(UTCTime.latest + 1 + 6 * 86_400) == "10000-01-07T00:00:00Z")
    for bad in [
      "10000-01-07T00:00:00Z", "0000-12-31T00:00:00Z", "2026-12-01T23:59:60Z", "2026-12-01T24:00:00Z",
      "2026-02-29T00:00:00Z", "2026-12-01 00:00:00Z", "2026-12-01T00:00:00z", "+2026-12-01T00:00:00Z",
    ] {
      #expect(UTCTime.parse(bad) == nil, "\(bad)")
    }
    #expect(UTCTime.parseTimestamp("2026-12-01") == nil)
    #expect(UTCTime.parse("2026-12-01") == UTCTime.parseTimestamp("2026-12-01T00:00:00Z"))
  }

  @Test(arguments: [Int64(-62_135_596_800), -86_401, -1, 0, 59, 951_782_400, 1_796_083_200, 253_402_300_799])
  func whatIsWrittenIsReadBack(_ seconds: Int64) {
    let text = UTCTime.iso8601(seconds)
    #expect(text.utf8.count == 20)
    #expect(UTCTime.parseTimestamp(text) == seconds, "\(text)")
  }

  @Test func aLinkNeverReplacesAnything() throws {
    let scratch = try ScratchDirectory()
    try AtomicFile.write([1], to: scratch.file("first"))
    try AtomicFile.write([2], to: scratch.file("second"))
    try FileSystem.linkWithoutReplacing(scratch.file("first"), to: scratch.file("name"))
    let taken = #expect(throws: FileError.self) {
      try FileSystem.linkWithoutReplacing(scratch.file("second"), to: scratch.file("name"))
    }
    #expect(taken?.errno == .fileExists)
    #expect(try FileSystem.contents(of: scratch.file("name"), limit: 8) == [1])
    try FileManager.default.createSymbolicLink(atPath: scratch.file("dangling"), withDestinationPath: scratch.file("nowhere"))
    #expect(throws: FileError.self) { try FileSystem.linkWithoutReplacing(scratch.file("second"), to: scratch.file("dangling")) }
    #expect(!FileSystem.exists(scratch.file("nowhere")))
  }

  @Test func onlyTheTemporaryFilesOfProcessesThatAreGoneAreRemoved() throws {
    let scratch = try ScratchDirectory()
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let names = [
      ".key.tmp-\(gone.processIdentifier)-1", ".key.tmp-\(getpid())-1", ".key.tmp-1-1", ".key.tmp-x-1", ".other.tmp-\(gone.processIdentifier)-1",
    ]
    for name in names { try AtomicFile.write([1], to: scratch.file(name)) }
    AtomicFile.removeAbandonedTemporaries(of: scratch.file("key"))
    #expect(try FileSystem.contentsOfDirectory(scratch.path) == names.dropFirst().sorted())
  }
}
