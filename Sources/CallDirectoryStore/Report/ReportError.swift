import CallDirectoryFormat

/// Why a store's report could not be gathered or written.
public enum ReportError: Error, CustomStringConvertible {
  /// The catalog could not be read, or the page could not be written.
  case store(StoreError)
  /// The latest snapshot blob could not be read.
  case blob(path: String, error: BlobError)
  /// The output path exists and is not a regular file (a directory, a
  /// symbolic link, a device, a FIFO): it is never replaced.
  case outputNotRegularFile(path: String)
  /// The output path lies in the store: the page would replace one of the
  /// store's files (its catalog, a published blob).
  case outputInsideStore(path: String, store: String)

  public var description: String {
    switch self {
    case .store(let error): error.description
    case .blob(let path, let error): "\(path): \(error)"
    case .outputNotRegularFile(let path): "\(path) exists and is not a regular file; refusing to replace it"
    case .outputInsideStore(let path, let store):
      "\(path) is inside the store \(store); refusing to write the page among the files it reports on"
    }
  }
}
