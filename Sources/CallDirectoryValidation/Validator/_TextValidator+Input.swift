import CalldirHost
import CalldirSystem

extension _TextValidator {
  /// Validates every line of `input`, front to back, in blocks of whole
  /// lines (``LineBlockReader``) taken straight from the input's window: a
  /// line longer than the limit (a CR before its LF aside) is reported and
  /// skipped, and the last line may lack its line feed (it is handed to
  /// ``consume(_:_:)`` with one).
  ///
  /// Memory stays bounded: the window never keeps more than one partial
  /// line of at most ``ValidationOptions/maxLineLength`` bytes plus one read.
  /// - Throws: ``FileError`` when reading fails.
  mutating func consumeLines(of input: ChunkedInput) throws(FileError) {
    let blocks = LineBlockReader(
      input, maxLineBytes: maxLineLength + 1, tooLongLines: .report(keepingFirst: 0), endsLastLine: true)
    while let block = try blocks.next() {
      if let start = block.bytes.baseAddress, !block.bytes.isEmpty { consume(start, start + block.bytes.count) }
      if block.endsWithTooLongLine { skipLongLine() }
    }
  }
}
