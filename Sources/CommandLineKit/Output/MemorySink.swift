import CalldirSystem

/// An ``OutputSink`` that keeps everything in memory, for tests.
public final class MemorySink: OutputSink {
  /// Everything written so far, as UTF-8 bytes.
  public private(set) var bytes: [UInt8] = []
  /// Whether to report being a terminal (to exercise ``ProgressReporter``).
  public let isTerminal: Bool
  /// The terminal width to report (to exercise help's wrapping).
  public let columns: Int?

  /// Creates an empty sink.
  ///
  /// - Parameters:
  ///   - isTerminal: The value of ``isTerminal``.
  ///   - columns: The value of ``columns``.
  public init(isTerminal: Bool = false, columns: Int? = nil) {
    self.isTerminal = isTerminal
    self.columns = columns
  }

  /// Everything written so far, decoded as UTF-8.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Always `true`.
  public var isWritable: Bool { true }

  /// Appends the UTF-8 encoding of `string`, hidden characters escaped
  /// (``ShownText/laidOut(_:)``).
  public func write(_ string: String) {
    bytes.append(contentsOf: (ShownText.laidOut(string) ?? string).utf8)
  }

  /// Appends raw bytes.
  public func write(bytes newBytes: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: newBytes)
  }

  /// Does nothing.
  public func flush() throws(OutputError) {}

  /// Forgets everything written so far.
  public func reset() {
    bytes.removeAll(keepingCapacity: true)
  }
}
