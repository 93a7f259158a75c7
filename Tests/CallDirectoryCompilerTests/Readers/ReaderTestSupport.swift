import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

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

/// The Unicode encodings a byte-order mark names, for text saved by tools
/// that write them.
enum UnicodeEncodingForm: CustomStringConvertible {
  case utf16LE, utf16BE, utf32LE, utf32BE

  /// `text`'s code units, in this form's byte order (a leading U+FEFF is
  /// the mark).
  func encode(_ text: String) -> [UInt8] {
    switch self {
    case .utf16LE: text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    case .utf16BE: text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    case .utf32LE: text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(scalar.value >> ($0 * 8) & 0xFF) } }
    case .utf32BE: text.unicodeScalars.flatMap { scalar in (0..<4).reversed().map { UInt8(scalar.value >> ($0 * 8) & 0xFF) } }
    }
  }

  var description: String {
    switch self {
    case .utf16LE: "UTF-16LE"
    case .utf16BE: "UTF-16BE"
    case .utf32LE: "UTF-32LE"
    case .utf32BE: "UTF-32BE"
    }
  }
}

/// `(number, line)` pairs.
func numbers(_ contents: SourceContents) -> [String] {
  contents.records.map(\.number)
}



