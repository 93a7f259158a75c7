extension Snapshot {
  /// Encodes the snapshot as a full-snapshot blob in memory.
  /// - Throws: `BlobError` if the snapshot is invalid.
  public func encoded() throws(BlobError) -> [UInt8] {
    let sink = MemoryBlobSink()
    try _write(to: sink)
    return sink.bytes
  }

  /// Writes the snapshot atomically to `path`.
  @discardableResult
  public func write(to path: String) throws(BlobError) -> BlobHeader {
    try _write(to: FileBlobSink(path: path))
  }

  /// Decodes a full-snapshot blob held in memory.
  public init(blob bytes: [UInt8]) throws(BlobError) {
    self = try BlobReader(bytes: bytes).readSnapshot()
  }

  /// Reads the full-snapshot blob at `path`.
  public init(contentsOf path: String) throws(BlobError) {
    self = try BlobReader(path: path).readSnapshot()
  }

  @discardableResult
  private func _write(to sink: any BlobSink) throws(BlobError) -> BlobHeader {
    let dictionary = _labelDictionary
    let writer = try FullSnapshotWriter(sink: sink, version: version, labels: dictionary.labels)
    for number in blocking { try writer.appendBlocking(number) }
    for entry in identification {
      guard let id = dictionary.ids[Array(entry.label.utf8)] else {
        throw BlobError.misuse("label missing from the dictionary")
      }
      try writer.appendIdentification(entry.number, labelID: id)
    }
    return try writer.finish()
  }
}

extension SnapshotDelta {
  /// Encodes the delta as a delta blob in memory.
  /// - Throws: `BlobError` if a list is out of order or out of range.
  public func encoded() throws(BlobError) -> [UInt8] {
    let sink = MemoryBlobSink()
    try _write(to: sink)
    return sink.bytes
  }

  /// Writes the delta atomically to `path`.
  @discardableResult
  public func write(to path: String) throws(BlobError) -> BlobHeader {
    try _write(to: FileBlobSink(path: path))
  }

  /// Decodes a delta blob held in memory.
  public init(blob bytes: [UInt8]) throws(BlobError) {
    self = try BlobReader(bytes: bytes).readDelta()
  }

  /// Reads the delta blob at `path`.
  public init(contentsOf path: String) throws(BlobError) {
    self = try BlobReader(path: path).readDelta()
  }

  @discardableResult
  private func _write(to sink: any BlobSink) throws(BlobError) -> BlobHeader {
    let dictionary = Snapshot(identification: identificationAdds)._labelDictionary
    let writer = try DeltaWriter(
      sink: sink, baseVersion: baseVersion, baseDigest: baseDigest, targetVersion: targetVersion,
      targetDigest: targetDigest, labels: dictionary.labels)
    for number in blockingRemoves { try writer.appendBlockingRemove(number) }
    for number in blockingAdds { try writer.appendBlockingAdd(number) }
    for number in identificationRemoves { try writer.appendIdentificationRemove(number) }
    for entry in identificationAdds {
      guard let id = dictionary.ids[Array(entry.label.utf8)] else {
        throw BlobError.misuse("label missing from the dictionary")
      }
      try writer.appendIdentificationAdd(entry.number, labelID: id)
    }
    return try writer.finish()
  }
}
