@_exported import CalldirTestSupport
import CalldirSystem
import Foundation

@testable import CallDirectoryCompiler

extension Workspace {
  /// Compiles the workspace's config; returns the snapshot and the rejects
  /// report lines. With `memoryLimit`, numbers past it spill into the workspace.
  /// Without `readingLinesInPieces`, line-by-line sources are read as events.
  func compile(
    memoryLimit: Int? = nil, asOf: CalendarDay? = nil, readingLinesInPieces: Bool = true
  ) throws -> (CompiledSnapshot, [String]) {
    let config = try BuildConfig.load(contentsOf: path("calldir.json"))
    let log = try RejectLog(directory: url.path)
    defer { log.discard() }
    var compiler = SnapshotCompiler()
    if let asOf { compiler.asOf = asOf }
    compiler.memoryLimit = memoryLimit
    compiler.readsLinesInPieces = readingLinesInPieces
    compiler.spillDirectory = url.path
    let snapshot = try compiler.compile(config, rejects: log)
    try log.finish()
    let text = try String(contentsOfFile: log.path, encoding: .utf8)
    return (snapshot, text.split(separator: "\n").map(String.init))
  }
}

extension CompiledSnapshot {
  var blockingNumbers: [Int64] {
    var result: [Int64] = []
    try? blocking.forEach { result.append($0) }
    return result
  }

  /// `number=label` of each identification entry, held or spilled.
  var identificationPairs: [String] {
    var result: [String] = []
    try? forEachIdentification { number, _, label in result.append("\(number)=\(String(decoding: label, as: UTF8.self))") }
    return result
  }
}
