/// The catalog schema of calldir before catalog version 2, as it wrote
/// `STORE/catalog.sqlite` (`PRAGMA user_version = 1`): the migration tests
/// open catalogs made with it.
enum CatalogVersion1 {
  static let schemaSQL = #"""
-- calldir catalog schema, version 1 (PRAGMA user_version = 1).
-- One SQLite database per store (STORE/catalog.sqlite), in WAL mode. Every
-- published snapshot is recorded in one transaction with its sources and
-- deltas, after its files were written, synced and renamed into place.
-- Times are ISO 8601 UTC strings; paths are relative to the store directory;
-- digests and checksums are lowercase hexadecimal.

CREATE TABLE snapshots (
  version          INTEGER PRIMARY KEY,  -- 1, 2, 3, … in publishing order
  created_at       TEXT    NOT NULL,
  path             TEXT    NOT NULL,     -- the full snapshot blob
  bytes            INTEGER NOT NULL,
  digest           TEXT    NOT NULL,     -- content digest over the entries (schemas/blob-format.md)
  file_checksum    TEXT    NOT NULL,     -- "crc32c:<hex>" of the blob file as written
  blocking         INTEGER NOT NULL,
  identification   INTEGER NOT NULL,
  labels           INTEGER NOT NULL,
  rejected         INTEGER NOT NULL,
  conflicts        INTEGER NOT NULL,
  allowed          INTEGER NOT NULL,
  duplicates       INTEGER NOT NULL,
  rejects_path     TEXT    NOT NULL,     -- the rejects report, one `file:line: reason` per line
  config_path      TEXT    NOT NULL,     -- absolute path of the config used
  forced           INTEGER NOT NULL,     -- 1 when published with --force past the removal guard
  read_ms          INTEGER NOT NULL,     -- reading and normalizing sources
  compile_ms       INTEGER NOT NULL,     -- sorting, allowlists, conflicts
  write_ms         INTEGER NOT NULL,     -- blobs and reports
  total_ms         INTEGER NOT NULL
);

CREATE TABLE snapshot_sources (
  version          INTEGER NOT NULL REFERENCES snapshots(version),
  position         INTEGER NOT NULL,     -- index in the config's sources
  path             TEXT    NOT NULL,     -- absolute path
  format           TEXT    NOT NULL,
  list             TEXT    NOT NULL,     -- block, identify or allow
  region           TEXT    NOT NULL,     -- ZZ for none
  priority         INTEGER NOT NULL,
  bytes            INTEGER NOT NULL,
  modified_at      TEXT    NOT NULL,
  checksum         TEXT    NOT NULL,     -- "crc32c:<hex>" of the file as read
  data_lines       INTEGER NOT NULL,
  accepted         INTEGER NOT NULL,
  rejected         INTEGER NOT NULL,
  PRIMARY KEY (version, position)
);

CREATE TABLE deltas (
  from_version     INTEGER NOT NULL REFERENCES snapshots(version),
  to_version       INTEGER NOT NULL REFERENCES snapshots(version),
  path             TEXT    NOT NULL,
  bytes            INTEGER NOT NULL,
  file_checksum    TEXT    NOT NULL,
  PRIMARY KEY (from_version, to_version)
);

-- Shards: when the config sets maxEntriesPerExtension and a snapshot holds
-- more entries, it is also published as one full blob per extension. Shard k
-- covers the numbers lower_bound ... upper_bound (inclusive).
CREATE TABLE shards (
  version          INTEGER NOT NULL REFERENCES snapshots(version),
  shard            INTEGER NOT NULL,     -- 1, 2, …
  lower_bound      INTEGER NOT NULL,
  upper_bound      INTEGER NOT NULL,
  path             TEXT    NOT NULL,
  bytes            INTEGER NOT NULL,
  digest           TEXT    NOT NULL,     -- content digest of the shard's entries
  file_checksum    TEXT    NOT NULL,
  blocking         INTEGER NOT NULL,
  identification   INTEGER NOT NULL,
  PRIMARY KEY (version, shard)
);

CREATE TABLE shard_deltas (
  from_version     INTEGER NOT NULL REFERENCES snapshots(version),
  to_version       INTEGER NOT NULL REFERENCES snapshots(version),
  shard            INTEGER NOT NULL,
  path             TEXT    NOT NULL,
  bytes            INTEGER NOT NULL,
  file_checksum    TEXT    NOT NULL,
  PRIMARY KEY (from_version, to_version, shard)
);

"""#

  /// A version-1 catalog's rows: one snapshot with one source.
  static let sampleRowsSQL = """
    INSERT INTO snapshots VALUES (1, '2026-11-29T00:00:00Z', 'snapshots/snapshot-000001.cdir', 100, 'aa', 'crc32c:01',
      5, 2, 1, 0, 0, 0, 0, 'rejects/rejects-000001.txt', '/cfg/calldir.json', 0, 1, 2, 3, 6);
    INSERT INTO snapshot_sources VALUES (1, 0, '/cfg/block.txt', 'lines', 'block', 'US', 0, 50, '2026-11-29T00:00:00Z',
      'crc32c:02', 5, 5, 0);
    """
}
