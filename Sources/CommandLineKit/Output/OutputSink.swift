/// A destination for text output, such as standard output or an in-memory buffer.
///
/// Sinks are reference types so a command can share one without `inout`.
/// They also conform to `TextOutputStream`, so `print(_:to:)` works on a
/// `var` holding one.
public protocol OutputSink: AnyObject, TextOutputStream {
  /// Appends the UTF-8 encoding of `string` with every hidden character
  /// escaped as ``ShownText`` escapes it, except tab and line feed (see
  /// ``ShownText/laidOut(_:)``): a path, label or input in any message
  /// cannot move the cursor, clear the screen or reorder what is shown.
  func write(_ string: String)
  /// Appends raw bytes, as they are (data, and the progress line's own
  /// control sequences).
  func write(bytes: UnsafeRawBufferPointer)
  /// Writes out anything buffered.
  ///
  /// - Throws: ``OutputError`` if an earlier write or this flush failed.
  ///   A closed pipe (`EPIPE`) is not an error.
  func flush() throws(OutputError)
  /// `false` once the reader has gone away (`EPIPE`); further output is dropped.
  ///
  /// Long-running producers can check this to stop early.
  var isWritable: Bool { get }
  /// Whether the sink is an interactive terminal.
  var isTerminal: Bool { get }
  /// The terminal's width in columns, when the sink is one that reports it.
  var columns: Int? { get }
}

extension OutputSink {
  /// `nil`: the sink reports no width.
  public var columns: Int? { nil }
}

extension OutputSink {
  /// Appends `line` followed by a newline.
  public func writeLine(_ line: String) {
    write(line)
    write("\n")
  }
}
