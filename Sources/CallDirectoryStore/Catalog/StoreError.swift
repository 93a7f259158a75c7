import CalldirSystem
import SQLiteDatabase

/// Why the store (catalog, lock, published files) could not be used.
public enum StoreError: Error, CustomStringConvertible {
  /// Another build holds the store's lock (with `--no-wait`).
  case locked(path: String)
  /// The catalog database failed; `busy` when another process holds it.
  case database(message: String, busy: Bool)
  /// The catalog is not usable.
  case catalog(String)
  /// SQLite finds the catalog file damaged: not a database, or malformed
  /// (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
  case catalogDamaged(String)
  /// The store has no catalog to read: the directory or its
  /// `catalog.sqlite` does not exist, or the file holds no catalog schema.
  case noCatalog(store: String)
  /// The store holds published files but its catalog is missing or empty:
  /// publishing would reuse their version numbers.
  case catalogMissing(store: String, highestVersion: Int)
  /// The store holds published files of versions the catalog does not know
  /// (a catalog restored from an older backup).
  case catalogBehind(store: String, known: Int, onDisk: Int)
  /// A published file disagrees with what the catalog recorded for it.
  case fileMismatch(path: String, problem: String)
  /// The store publishes one dataset; the config names another.
  case datasetChanged(store: String, published: String, configured: String)
  /// The snapshot needs more Call Directory extensions than `maxExtensions`.
  case capacity(needed: Int, maxExtensions: Int, perExtension: Int, entries: Int)
  /// A file operation failed.
  case file(FileError)

  init(_ error: SQLiteError) {
    if error.primaryCode == .corrupt || error.primaryCode == .notADatabase {
      self = .catalogDamaged(error.description)
    } else {
      self = .database(message: error.description, busy: error.isBusy)
    }
  }

  public var description: String {
    switch self {
    case .locked(let path): "store is locked by another build: \(path)"
    case .database(let message, _): "catalog: \(message)"
    case .catalog(let message): "catalog: \(message)"
    case .catalogDamaged(let message):
      "catalog: \(message): the file is damaged; run 'calldir repair' to rebuild it from the published files "
        + "(it keeps the damaged file)"
    case .noCatalog(let store): "no catalog in \(store) (nothing published yet; run 'calldir build' first)"
    case .catalogMissing(let store, let highest):
      "\(store) holds published files up to version \(highest) but no catalog; nothing was published or removed; "
        + "run 'calldir repair --store \(store)' to rebuild the catalog from them"
    case .catalogBehind(let store, let known, let onDisk):
      "the catalog of \(store) knows versions up to \(known) but the store holds published files of version \(onDisk) "
        + "(a catalog restored from a backup?); nothing was published or removed; "
        + "run 'calldir repair --store \(store)' to bring the catalog up to date"
    case .fileMismatch(let path, let problem):
      "\(path) does not match the catalog: \(problem); run 'calldir repair' to check the store"
    case .datasetChanged(let store, let published, let configured):
      "\(store) publishes dataset '\(published)', the config names '\(configured.isEmpty ? "(none)" : configured)'; "
        + "nothing published (phones refuse another dataset's data: use a new store)"
    case .capacity(let needed, let maxExtensions, let perExtension, let entries):
      "the snapshot's \(entries) entries need \(needed) extensions of at most \(perExtension) entries, above "
        + "maxExtensions \(maxExtensions); nothing published (raise maxExtensions and ship that many extensions, "
        + "or make the dataset smaller)"
    case .file(let error): error.description
    }
  }
}
