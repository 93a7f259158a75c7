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

  public var description: String {
    switch self {
    case .store(let error): error.description
    case .blob(let path, let error): "\(path): \(error)"
    case .outputNotRegularFile(let path): "\(path) exists and is not a regular file; refusing to replace it"
    }
  }
}
