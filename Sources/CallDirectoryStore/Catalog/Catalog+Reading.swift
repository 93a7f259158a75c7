import CalldirSystem
import SQLiteDatabase

extension Catalog {
  /// Opens the catalog of an existing store for reading.
  ///
  /// Every command that reads a store (`history`, `diff --store`, …) opens
  /// its catalog here, so that a store without one is the same error
  /// everywhere and nothing is ever created in it.
  ///
  /// The catalog is in WAL mode, whose readers normally create
  /// `catalog.sqlite-shm` next to it. When the store directory cannot be
  /// written (a read-only mount, or permissions: `access(2)` with `W_OK`)
  /// and no `catalog.sqlite-wal` is left, the file is opened immutable
  /// (``Database/OpenMode/immutable``), which needs neither file: a cleanly
  /// closed catalog holds everything in the database file. A leftover
  /// `-wal` (a build that was killed) may hold committed versions, so it is
  /// read through an ordinary read-only connection, which SQLite supports
  /// on a read-only directory when the `-wal` and `-shm` files exist.
  ///
  /// - Parameter store: The store.
  /// - Returns: The catalog, read-only.
  /// - Throws: `StoreError.noCatalog` when the store directory or its
  ///   catalog does not exist, or the file holds no catalog schema;
  ///   `StoreError.file` when its status cannot be read;
  ///   `StoreError.catalogDamaged` when SQLite finds it damaged;
  ///   `StoreError.catalog` when the schema is newer than this code knows;
  ///   `StoreError.database` when SQLite fails.
  public static func openForReading(_ store: StoreLayout) throws(StoreError) -> Catalog {
    // A catalog that is not there (or not reachable: no directory, a loop
    // of links) is missing; one whose status cannot be read for another
    // reason (an I/O error) is an error, never taken for a missing one.
    let status: FileStatus?
    do {
      status = try FileSystem.statusIfPresent(store.catalog)
    } catch where error.errno.isMissingInput {
      status = nil
    } catch {
      throw .file(error)
    }
    guard let status, status.kind != .directory else { throw .noCatalog(store: store.root) }
    let database: Database
    let version: Int32
    do {
      database = try Database(path: store.catalog, mode: readingMode(store))
      version = try database.userVersion()
    } catch {
      throw StoreError(error)
    }
    switch version {
    case 0:
      throw .noCatalog(store: store.root)
    case 1...schemaVersion:
      return Catalog(checkedReadOnly: database, fileVersion: version)
    default:
      throw .catalog("catalog schema version \(version) is newer than this calldir supports (\(schemaVersion))")
    }
  }

  /// Read-only, or immutable when SQLite could not create the files WAL
  /// readers need and there is no WAL to read.
  private static func readingMode(_ store: StoreLayout) -> Database.OpenMode {
    let isWritable = FileSystem.isWritableDirectory(store.root)
    let hasWAL = FileSystem.exists(store.catalog + "-wal")
    return isWritable || hasWAL ? .readOnly : .immutable
  }
}
