import CalldirSystem

/// Settings for a ``DatasetValidator``.
public struct ValidationOptions: Sendable, Hashable {
  /// How many violations are passed to the report handler; the rest are
  /// only counted. `nil` passes every violation.
  public var maxReported: Int?
  /// The longest accepted text line in bytes, without its line break
  /// (at least 64). A longer line is one ``ViolationKind/lineTooLong``
  /// violation and is skipped; memory never grows past this bound.
  public var maxLineLength: Int
  /// Whether labels with control characters are reported as warnings.
  public var reportsControlCharacters: Bool
  /// Whether a full snapshot's content digest (SHA-256 over every entry) is
  /// recomputed and compared; a mismatch is a damaged blob. Off by default:
  /// it costs about 10× the rest of the check, and the CRC-32C checksums
  /// already catch corruption (`calldir inspect` checks the digest).
  public var recomputesDigest: Bool
  /// The largest blob read from a pipe, FIFO or terminal, in bytes. A blob
  /// is read at random offsets, so one that is not a regular file is
  /// copied to a temporary file in ``spoolDirectory`` first (memory stays
  /// flat); a larger one is refused
  /// (``ValidationError/blobTooLargeToSpool(name:limit:)``), so that an
  /// endless pipe cannot fill the disk. Text is streamed whatever its
  /// source and size.
  public var maxSpooledBlobBytes: Int
  /// Where that temporary file is made: `$TMPDIR` when set, else `/tmp`.
  public var spoolDirectory: String

  /// Creates options.
  ///
  /// - Parameters:
  ///   - maxReported: How many violations to report (`nil`: all); counting continues.
  ///   - maxLineLength: The longest text line in bytes.
  ///   - reportsControlCharacters: Whether to warn about control characters in labels.
  ///   - recomputesDigest: Whether to check a full snapshot's content digest.
  ///   - maxSpooledBlobBytes: The largest blob accepted from a pipe or FIFO.
  ///   - spoolDirectory: Where a blob from a pipe or FIFO is copied
  ///     (default: `$TMPDIR`, else `/tmp`).
  public init(
    maxReported: Int? = 20,
    maxLineLength: Int = 1 << 20,
    reportsControlCharacters: Bool = true,
    recomputesDigest: Bool = false,
    maxSpooledBlobBytes: Int = 256 << 20,
    spoolDirectory: String? = nil
  ) {
    self.maxSpooledBlobBytes = max(0, maxSpooledBlobBytes)
    self.spoolDirectory = spoolDirectory ?? Self.temporaryDirectory
    self.maxReported = maxReported.map { max(0, $0) }
    self.maxLineLength = max(64, maxLineLength)
    self.reportsControlCharacters = reportsControlCharacters
    self.recomputesDigest = recomputesDigest
  }

  /// `$TMPDIR` when it is set and not empty (without a trailing slash), else `/tmp`.
  static var temporaryDirectory: String {
    guard var directory = CurrentProcess.environment("TMPDIR"), !directory.isEmpty else { return "/tmp" }
    while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
    return directory
  }
}
