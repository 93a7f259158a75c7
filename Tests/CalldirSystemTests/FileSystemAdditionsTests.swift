import CalldirSystem
import Foundation
import Testing

/// Whole small files, tree removal and atomic copies.
@Suite struct FileSystemAdditionsTests {
  @Test func smallFilesAreReadWholeWithinTheirLimit() throws {
    let scratch = try ScratchDirectory()
    try AtomicFile.write(Array("{\"a\":1}\n".utf8), to: scratch.file("small.json"))
    #expect(try FileSystem.contents(of: scratch.file("small.json"), limit: 8) == Array("{\"a\":1}\n".utf8))
    let tooLarge = #expect(throws: FileError.self) { try FileSystem.contents(of: scratch.file("small.json"), limit: 7) }
    #expect(tooLarge?.errno == .fileTooLarge)
    #expect(try FileSystem.contentsIfPresent(of: scratch.file("missing"), limit: 8) == nil)
    let directory = #expect(throws: FileError.self) { try FileSystem.contentsIfPresent(of: scratch.path, limit: 8) }
    #expect(directory?.errno == .isDirectory)
  }

  @Test func removeTreeRemovesEverythingButFollowsNoLink() throws {
    let scratch = try ScratchDirectory()
    let kept = scratch.file("kept")
    try AtomicFile.write([1], to: kept)
    let tree = scratch.file("tree")
    try FileSystem.createDirectory(tree + "/a/b")
    try AtomicFile.write([2], to: tree + "/a/b/file")
    try AtomicFile.write([3], to: tree + "/top")
    try FileManager.default.createSymbolicLink(atPath: tree + "/link", withDestinationPath: kept)
    try FileSystem.removeTree(tree)
    #expect(!FileSystem.exists(tree))
    #expect(try FileSystem.contents(of: kept, limit: 8) == [1])
    try FileSystem.removeTree(tree)  // missing is fine
  }

  @Test func anAtomicCopyHoldsEveryByte() throws {
    let scratch = try ScratchDirectory()
    let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try AtomicFile.write(bytes, to: scratch.file("source"))
    try AtomicFile.write([9], to: scratch.file("copy"))
    try AtomicFile.copy(contentsOf: scratch.file("source"), to: scratch.file("copy"))
    #expect(try scratch.read("copy") == bytes)
    #expect(throws: FileError.self) { try AtomicFile.copy(contentsOf: scratch.path, to: scratch.file("dir-copy")) }
    #expect(!FileSystem.exists(scratch.file("dir-copy")))
    #expect(try FileSystem.contentsOfDirectory(scratch.path) == ["copy", "source"])
  }

  @Test func stringsKeepValidReplacementCharactersAndRejectInvalidUTF8() throws {
    #expect(try JSONParser.parse(Array("\"a\u{FFFD}b\"".utf8)) == .string("a\u{FFFD}b"))
    #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) }
    #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xE2, 0x82, 0x22]) }
  }
}
