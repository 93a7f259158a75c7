/// How much a harness expands of a blob: runs are valid however long, so
/// only blobs recording few entries are read entry by entry.
enum BlobReadingLimits {
  /// The most entries a blob may record for the harness to expand its runs.
  static let entryLimit: UInt64 = 1 << 16
  /// The most chunks read from one section.
  static let chunkLimit = 1 << 12
}
