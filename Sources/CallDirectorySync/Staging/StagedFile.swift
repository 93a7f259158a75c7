/// A file of the manifest, downloaded into the staging area and verified:
/// its size and SHA-256 are the manifest's.
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

  public init(file: Manifest.File, path: String, downloadedBytes: Int64, resumedAt: Int64?, wasAlreadyStaged: Bool) {
    self.file = file
    self.path = path
    self.downloadedBytes = downloadedBytes
    self.resumedAt = resumedAt
    self.wasAlreadyStaged = wasAlreadyStaged
  }
}
