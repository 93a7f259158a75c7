import CSQLite

/// `SQLITE_TRANSIENT`, which Swift does not import: a destructor of -1 tells
/// SQLite to copy bound text and blobs before the bind call returns.
let _SQLITE_TRANSIENT = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
