import CalldirSystem

/// Writes a rendered report page to a file atomically (``AtomicFile``), so a
/// browser or a web server never sees half a page.
public enum ReportPageWriter {
  /// Writes `page` to `path`, replacing a regular file there.
  ///
  /// - Throws: ``ReportError/outputNotRegularFile(path:)`` when `path` is a
  ///   directory, a symbolic link or any other non-regular file (it is left
  ///   as it is); ``ReportError/store(_:)`` with `StoreError.file` when the
  ///   file cannot be created or written there.
  ///   ``ReportError/outputInsideStore(path:store:)`` when `path` lies in
  ///   the store the page reports on, whose files it would replace.
  public static func write(_ page: String, to path: String, reporting store: StoreLayout) throws(ReportError) {
    if FileSystem.isWithin(path, directory: store.root) { throw .outputInsideStore(path: path, store: store.root) }
    if FileSystem.holdsNonRegularFile(path) { throw .outputNotRegularFile(path: path) }
    do {
      try AtomicFile.write(Array(page.utf8), to: path)
    } catch {
      throw .store(.file(error))
    }
  }
}
