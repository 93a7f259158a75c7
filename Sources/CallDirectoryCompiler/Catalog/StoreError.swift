import SQLiteDatabase

/// Why the store (catalog, lock, published files) could not be used.
public enum StoreError: Error, CustomStringConvertible {
  /// Another build holds the store's lock (with `--no-wait`).
  case locked(path: String)
  /// The catalog database failed; `busy` when another process holds it.
  case database(message: String, busy: Bool)
  /// The catalog is not usable.
  case catalog(String)
  /// The store has no catalog to read: the directory or its
  /// `catalog.sqlite` does not exist, or the file holds no catalog schema.
  case noCatalog(store: String)
  /// A file or directory could not be created.
  case cannotCreate(path: String, reason: String)
  /// Reading or writing failed.
  case io(path: String, reason: String)

  init(_ error: SQLiteError) {
    self = .database(message: error.description, busy: error.isBusy)
  }

  public var description: String {
    switch self {
    case .locked(let path): "store is locked by another build: \(path)"
    case .database(let message, _): "catalog: \(message)"
    case .catalog(let message): "catalog: \(message)"
    case .noCatalog(let store): "no catalog in \(store) (nothing published yet; run 'calldir build' first)"
    case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
    case .io(let path, let reason): "\(path): \(reason)"
    }
  }
}
