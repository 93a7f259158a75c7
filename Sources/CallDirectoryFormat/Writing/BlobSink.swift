/// Where a writer puts the blob's bytes.
///
/// Writers append the bytes front to back, then patch the header at offset 0
/// with ``overwrite(at:with:)``, then call ``commit()``. On failure, or if the
/// writer is dropped before finishing, they call ``abandon()``.
public protocol BlobSink: AnyObject {
  /// Appends bytes.
  func write(_ bytes: UnsafeRawBufferPointer) throws(BlobError)
  /// Replaces bytes already written at `offset`.
  func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws(BlobError)
  /// Makes the complete blob durable and visible.
  func commit() throws(BlobError)
  /// Discards everything written.
  func abandon()
}

extension BlobSink {
  /// Appends every byte of `bytes`.
  func write(_ bytes: [UInt8]) throws(BlobError) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(BlobError) in try write(UnsafeRawBufferPointer(buffer)) }
  }
}

/// Collects a blob in memory.
public final class MemoryBlobSink: BlobSink {
  /// The bytes written so far (the complete blob after the writer finishes).
  public private(set) var bytes = [UInt8]()
  /// Whether the writer committed the blob.
  public private(set) var isCommitted = false

  /// Creates an empty sink.
  public init() {}

  /// Appends bytes.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(BlobError) {
    self.bytes.append(contentsOf: bytes)
  }

  /// Replaces bytes already written.
  /// - Throws: `BlobError.misuse` for a range past the bytes written.
  public func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws(BlobError) {
    guard offset <= UInt64(self.bytes.count), UInt64(self.bytes.count) - offset >= UInt64(bytes.count)
    else { throw BlobError.misuse("overwrite past the end of the written bytes") }
    let start = Int(offset)
    self.bytes.replaceSubrange(start..<(start + bytes.count), with: bytes)
  }

  /// Marks the blob complete.
  public func commit() throws(BlobError) {
    isCommitted = true
  }

  /// Drops the bytes.
  public func abandon() {
    bytes = []
  }
}

@available(*, unavailable)
extension MemoryBlobSink: Sendable {}
