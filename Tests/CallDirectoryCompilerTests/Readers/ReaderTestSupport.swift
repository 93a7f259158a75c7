import Foundation
import Testing

@testable import CallDirectoryCompiler

/// In-memory input from text.
func input(_ text: String) -> SourceInput {
  .bytes(Array(text.utf8))
}

/// Reads with the default chunk size, then again with tiny chunk sizes, and
/// expects identical results (every buffer boundary gets hit).
func readAll<Reader: SourceReader & _ChunkSizeAdjustable>(
  _ reader: Reader, sourceLocation: SourceLocation = #_sourceLocation
) throws -> SourceContents {
  let reference = try reader.readAll()
  for size in [1, 2, 3, 5, 7, 16, 61] {
    var small = reader
    small._chunkSize = size
    let contents = try small.readAll()
    #expect(
      contents == reference, "chunk size \(size)",
      sourceLocation: sourceLocation)
  }
  #expect(
    reference.summary.dataLines
      == reference.records.count + reference.ranges.count
      + reference.issues.count,
    sourceLocation: sourceLocation)
  return reference
}

/// `(number, line)` pairs.
func numbers(_ contents: SourceContents) -> [String] {
  contents.records.map(\.number)
}

/// A temporary directory removed by the caller.
func makeTemporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "ingest-tests-" + UUID().uuidString
  try FileManager.default.createDirectory(
    atPath: path, withIntermediateDirectories: true)
  return path
}


