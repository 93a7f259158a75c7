/// Turns the bytes of one source into raw records, ranges and issues.
///
/// A reader never normalizes numbers and never decides policy: it only
/// splits text and reports where each record came from. Reading streams the
/// input; a reader can be read more than once.
///
/// New formats conform to this protocol and are registered in a
/// ``SourceFormatRegistry``; the compiler only sees `any SourceReader`.
///
///     let reader = try registry.makeReader(for: spec)
///     let summary = try reader.read { event in
///       switch event {
///       case .record(let record): use(record.numberBytes, record.line)
///       case .range(let range): use(range.range)
///       case .issue(let issue): report(issue)
///       }
///     }
public protocol SourceReader: Sendable {
  /// Reads the whole source, calling `body` once per data line in order.
  ///
  /// - Parameter body: Receives each event. A ``RawRecord`` payload is only
  ///   valid during the call. An error thrown by `body` stops reading and is
  ///   rethrown unchanged.
  /// - Returns: The counts of what was delivered.
  /// - Throws: ``SourceError`` when the source cannot be read at all, or
  ///   whatever `body` throws.
  func read(_ body: (SourceEvent) throws -> Void) throws -> SourceSummary
}

extension SourceReader {
  /// Reads the whole source into owned arrays.
  ///
  /// Convenient for tests and small sources; the compiler should use
  /// ``read(_:)`` to avoid holding a large source in memory.
  /// - Throws: ``SourceError``.
  public func readAll() throws -> SourceContents {
    var contents = SourceContents()
    contents.summary = try read { event in
      switch event {
      case .record(let record): contents.records.append(record.makeRecord())
      case .range(let range): contents.ranges.append(range)
      case .issue(let issue): contents.issues.append(issue)
      }
    }
    return contents
  }
}
