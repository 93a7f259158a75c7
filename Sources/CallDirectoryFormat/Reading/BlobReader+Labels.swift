extension BlobReader {
  /// Streams the label dictionary front to back in constant memory: calls
  /// `body` with each label's id and UTF-8 bytes, in id order, until it
  /// returns `false`.
  ///
  /// Offsets are checked (ascending, within the text, at most
  /// ``BlobLimits/maxLabelBytes`` per label) but neither UTF-8 nor the
  /// section checksum; ``verify(recomputingDigest:)`` checks both.
  /// - Parameter body: Takes a label; its bytes are valid only during the
  ///   call. Returns whether to go on.
  /// - Throws: `BlobError.corrupt` for bad offsets, `truncated`, or `io`.
  /// - Complexity: O(size of the label section), in 64 KiB reads.
  public func forEachLabel(_ body: (_ id: UInt32, _ utf8: UnsafeRawBufferPointer) -> Bool) throws(BlobError) {
    guard let info = header.info(.labels), info.entryCount > 0 else { return }
    let count = info.entryCount
    let tableLength = (count + 1) * 4
    var table = _SequentialReader(source: _source, offset: info.offset, end: info.offset + tableLength, section: .labels)
    var text = _SequentialReader(
      source: _source, offset: info.offset + tableLength, end: info.offset + info.length, section: .labels)
    var start: UInt64 = 0
    try table.read(4) { (bytes) throws(BlobError) in start = UInt64(_loadLE(bytes, 0, as: UInt32.self)) }
    guard start == 0 else { throw BlobError.corrupt("label offsets do not start at 0") }
    var id: UInt64 = 0
    while id < count {
      var end: UInt64 = 0
      try table.read(4) { (bytes) throws(BlobError) in end = UInt64(_loadLE(bytes, 0, as: UInt32.self)) }
      guard end >= start, end - start <= UInt64(BlobLimits.maxLabelBytes), end <= info.length - tableLength else {
        throw BlobError.corrupt("label \(id) has invalid offsets \(start)..<\(end)")
      }
      var goOn = true
      let labelID = UInt32(id)
      try text.read(Int(end - start)) { (bytes) throws(BlobError) in goOn = body(labelID, bytes) }
      guard goOn else { return }
      start = end
      id += 1
    }
  }
}
