import Glibc

/// Writes a rendered report page to a file atomically: a temporary file in
/// the same directory, `fsync`, then a rename over the destination, so a
/// browser or a web server never sees half a page.
public enum ReportPageWriter {
  /// Writes `page` to `path`, replacing a regular file there.
  ///
  /// - Throws: ``ReportError/outputNotRegularFile(path:)`` when `path` is a
  ///   directory, a symbolic link or any other non-regular file (it is left
  ///   as it is); ``ReportError/store(_:)`` with `StoreError.cannotCreate`
  ///   when the file cannot be created there, or `StoreError.io` when
  ///   writing it fails.
  public static func write(_ page: String, to path: String) throws(ReportError) {
    var status = stat()
    if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
      throw .outputNotRegularFile(path: path)
    }
    do {
      try FileOperations.writeAtomically(Array(page.utf8), to: path)
    } catch {
      throw .store(error)
    }
  }
}
