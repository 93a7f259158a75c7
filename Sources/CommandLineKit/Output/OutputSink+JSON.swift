import CalldirSystem

extension OutputSink {
  /// Writes `value` compactly followed by a newline (one JSON object per line).
  public func writeJSONLine(_ value: JSONValue) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(128)
    value.serialize(into: &bytes)
    bytes.append(0x0A)
    bytes.withUnsafeBytes { write(bytes: $0) }
  }

  /// Writes `value`'s ``JSONEncodable/json`` as one line.
  public func writeJSONLine(_ value: some JSONEncodable) {
    writeJSONLine(value.json)
  }
}
