@_exported import CalldirTestSupport
import CallDirectoryFormat
@testable import CallDirectoryValidation

import Foundation

/// What one validation produced.
struct Outcome {
  var summary: ValidationSummary
  var violations: [Violation]

  var kinds: [ViolationKind] { violations.map(\.kind) }
  var lines: [Int?] { violations.map(\.line) }
}

/// Validates `text` (as UTF-8) in memory.
func validate(
  _ text: String, maxReported: Int? = nil, maxLineLength: Int = 1 << 20, chunkSize: Int = 1 << 20
) throws -> Outcome {
  try validate(bytes: Array(text.utf8), maxReported: maxReported, maxLineLength: maxLineLength, chunkSize: chunkSize)
}

/// Validates `bytes` in memory.
func validate(
  bytes: [UInt8], maxReported: Int? = nil, maxLineLength: Int = 1 << 20, chunkSize: Int = 1 << 20
) throws -> Outcome {
  let options = ValidationOptions(maxReported: maxReported, maxLineLength: maxLineLength)
  var violations: [Violation] = []
  let summary = try DatasetValidator(options: options, chunkSize: chunkSize)
    .validate(bytes: bytes, name: "input") { violations.append($0) }
  return Outcome(summary: summary, violations: violations)
}

/// Validates the file at `path`.
func validate(path: String, maxReported: Int? = nil) throws -> Outcome {
  var violations: [Violation] = []
  let summary = try DatasetValidator(options: ValidationOptions(maxReported: maxReported))
    .validate(path: path) { violations.append($0) }
  return Outcome(summary: summary, violations: violations)
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Builds a full snapshot blob in memory.
func fullBlob(
  blocking: [Int64], identification: [(Int64, UInt32)], labels: [String], version: UInt64 = 1
) throws -> [UInt8] {
  let sink = MemoryBlobSink()
  let writer = try FullSnapshotWriter(sink: sink, version: version, labels: labels)
  for number in blocking { try writer.appendBlocking(number) }
  for (number, label) in identification { try writer.appendIdentification(number, labelID: label) }
  try writer.finish()
  return sink.bytes
}

/// Builds a delta blob in memory.
func deltaBlob(
  blockingRemoves: [Int64], blockingAdds: [Int64], identificationRemoves: [Int64],
  identificationAdds: [(Int64, UInt32)], labels: [String]
) throws -> [UInt8] {
  let sink = MemoryBlobSink()
  let writer = try DeltaWriter(
    sink: sink, baseVersion: 1, baseDigest: .empty, targetVersion: 2, targetDigest: .zero, labels: labels)
  for number in blockingRemoves { try writer.appendBlockingRemove(number) }
  for number in blockingAdds { try writer.appendBlockingAdd(number) }
  for number in identificationRemoves { try writer.appendIdentificationRemove(number) }
  for (number, label) in identificationAdds { try writer.appendIdentificationAdd(number, labelID: label) }
  try writer.finish()
  return sink.bytes
}
