/// A command's standard output that remembers whether the command wrote
/// to it: a failure it answered with a document of its own gets no other.
final class _WriteTrackingSink: OutputSink {
  private let sink: any OutputSink
  private(set) var hasWritten = false

  init(_ sink: any OutputSink) {
    self.sink = sink
  }

  func write(_ string: String) {
    if !string.isEmpty { hasWritten = true }
    sink.write(string)
  }

  func write(bytes: UnsafeRawBufferPointer) {
    if !bytes.isEmpty { hasWritten = true }
    sink.write(bytes: bytes)
  }

  func flush() throws(OutputError) { try sink.flush() }
  var isWritable: Bool { sink.isWritable }
  var isTerminal: Bool { sink.isTerminal }
  var columns: Int? { sink.columns }
}
