/// A file of the manifest, downloaded into the staging area and verified:
/// its size and SHA-256 are the manifest's. While the value lives, the
/// file is locked against removal by another sync of the device.
public struct StagedFile: Sendable, Hashable {
  /// The manifest's description of the file.
  public var file: Manifest.File
  /// Where it is staged.
  public var path: String
  /// The bytes fetched from the source for it by this sync.
  public var downloadedBytes: Int64
  /// Where this sync resumed a download an earlier one had cut short; nil
  /// when it downloaded from the start, or did not download at all.
  public var resumedAt: Int64?
  /// Whether an earlier sync had already downloaded and verified it.
  public var wasAlreadyStaged: Bool
  /// The bytes of a partial download an earlier sync left that turned
  /// out not to be the file's: discarded, and the file fetched again from
  /// byte 0 by this sync. Nil when none.
  public var discardedPartial: Int64?
  /// The lock that keeps the file staged while this sync needs it.
  let pin: _StagingPin?

  public init(
    file: Manifest.File, path: String, downloadedBytes: Int64, resumedAt: Int64?, wasAlreadyStaged: Bool,
    discardedPartial: Int64? = nil
  ) {
    self.init(
      file: file, path: path, downloadedBytes: downloadedBytes, resumedAt: resumedAt,
      wasAlreadyStaged: wasAlreadyStaged, discardedPartial: discardedPartial, pin: nil)
  }

  init(
    file: Manifest.File, path: String, downloadedBytes: Int64, resumedAt: Int64?, wasAlreadyStaged: Bool,
    discardedPartial: Int64? = nil, pin: _StagingPin?
  ) {
    self.file = file
    self.path = path
    self.downloadedBytes = downloadedBytes
    self.resumedAt = resumedAt
    self.wasAlreadyStaged = wasAlreadyStaged
    self.discardedPartial = discardedPartial
    self.pin = pin
  }

  public static func == (left: StagedFile, right: StagedFile) -> Bool {
    left.file == right.file && left.path == right.path && left.downloadedBytes == right.downloadedBytes
      && left.resumedAt == right.resumedAt && left.wasAlreadyStaged == right.wasAlreadyStaged
      && left.discardedPartial == right.discardedPartial
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(file)
    hasher.combine(path)
  }
}
