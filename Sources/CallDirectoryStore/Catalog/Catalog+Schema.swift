extension Catalog {
  /// The schema version this code writes (`PRAGMA user_version`).
  static let schemaVersion: Int32 = 6

  /// Brings a catalog of schema version `from` up to ``schemaVersion``, in
  /// the caller's transaction. Columns only ever get added, so every row a
  /// catalog holds survives; values an older calldir did not record are
  /// NULL.
  static func migrationSQL(from version: Int32) -> String? {
    switch version {
    case 1: migrationFrom1
    case 2: migrationFrom2
    case 3: migrationFrom3
    case 4: migrationFrom4
    case 5: migrationFrom5
    default: nil
    }
  }

  /// Version 1 → 2: per-list additions and removals, the conflicts report,
  /// what each source contributed, rejects by reason, refused builds.
  private static let migrationFrom1 = """
    ALTER TABLE snapshots ADD COLUMN blocking_added INTEGER;
    ALTER TABLE snapshots ADD COLUMN blocking_removed INTEGER;
    ALTER TABLE snapshots ADD COLUMN identification_added INTEGER;
    ALTER TABLE snapshots ADD COLUMN identification_removed INTEGER;
    ALTER TABLE snapshots ADD COLUMN conflicts_path TEXT;
    ALTER TABLE snapshots ADD COLUMN max_range_size INTEGER;
    ALTER TABLE snapshots ADD COLUMN dataset TEXT;
    ALTER TABLE snapshots ADD COLUMN pruned_at TEXT;
    ALTER TABLE snapshot_sources ADD COLUMN written_path TEXT;
    ALTER TABLE snapshot_sources ADD COLUMN options TEXT;
    ALTER TABLE snapshot_sources ADD COLUMN max_removal_ratio REAL;
    ALTER TABLE snapshot_sources ADD COLUMN numbers INTEGER;
    ALTER TABLE snapshot_sources ADD COLUMN duplicates INTEGER;
    ALTER TABLE snapshot_sources ADD COLUMN unique_entries INTEGER;
    ALTER TABLE snapshot_sources ADD COLUMN absent INTEGER NOT NULL DEFAULT 0;
    """ + version2TablesSQL

  /// Version 2 → 3: the build's reference date (`--as-of`).
  private static let migrationFrom2 = """
    ALTER TABLE snapshots ADD COLUMN as_of TEXT;
    """

  /// Version 3 → 4: each source's evidence rules, for `explain`.
  private static let migrationFrom3 = """
    ALTER TABLE snapshot_sources ADD COLUMN min_reports INTEGER;
    ALTER TABLE snapshot_sources ADD COLUMN max_age_days INTEGER;
    ALTER TABLE snapshot_sources ADD COLUMN label_policy TEXT;
    """

  /// Version 4 → 5: the config's `defaultRegion`, for `explain`.
  private static let migrationFrom4 = """
    ALTER TABLE snapshots ADD COLUMN default_region TEXT;
    """

  /// Version 5 → 6: each version's Live Caller ID Lookup settings and
  /// identity details, and the exports' sizing and shard digests.
  private static let migrationFrom5 = """
    ALTER TABLE snapshots ADD COLUMN live_caller_id TEXT;
    ALTER TABLE snapshots ADD COLUMN identities_path TEXT;
    ALTER TABLE snapshots ADD COLUMN identities_checksum TEXT;
    ALTER TABLE snapshots ADD COLUMN identities_digest TEXT;
    """ + version6TablesSQL

  /// The text of `schemas/catalog.sql` (a test keeps the two equal).
  static let schemaSQL = #"""
-- calldir catalog schema, version 6 (PRAGMA user_version = 6).
-- One SQLite database per store (STORE/catalog.sqlite), in WAL mode. Every
-- published snapshot is recorded in one transaction with its sources and
-- deltas, after its files were written, synced and renamed into place.
-- Times are ISO 8601 UTC strings; paths are relative to the store directory;
-- digests and checksums are lowercase hexadecimal.
-- A catalog of version 1, 2, 3, 4 or 5 is migrated in place by the first build or
-- command that writes it: the columns later versions add are appended (NULL
-- in rows written before) and the tables they add are created.

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
  total_ms         INTEGER NOT NULL,
  -- version 2:
  blocking_added         INTEGER,        -- blocking entries the previous version lacked; NULL when unknown
  blocking_removed       INTEGER,        -- blocking entries of the previous version dropped
  identification_added   INTEGER,        -- identification numbers added (a relabel is neither)
  identification_removed INTEGER,
  conflicts_path         TEXT,           -- the label conflicts report; NULL when none was kept
  max_range_size         INTEGER,        -- the config's maxRangeSize (ranges above it were rejected)
  dataset                TEXT,           -- the config's dataset, carried by the version's blobs; NULL before datasets
  pruned_at              TEXT,           -- when 'calldir prune' removed the version's files; NULL while they are kept
  -- version 3:
  as_of                  TEXT,           -- the build's reference date (YYYY-MM-DD, --as-of); NULL before version 3
  -- version 5:
  default_region         TEXT,           -- the config's defaultRegion (ZZ for none), which explain reads inputs in;
                                         -- NULL before version 5, and for rows calldir repair rebuilt from blobs
  -- version 6: Live Caller ID Lookup (NULL for a version built without liveCallerID)
  live_caller_id         TEXT,           -- the config's liveCallerID object, every default written out (JSON)
  identities_path        TEXT,           -- the identity details: each identification entry's category and icon
                                         -- (schemas/identity-details.md)
  identities_checksum    TEXT,           -- "crc32c:<hex>" of that file
  identities_digest      TEXT            -- SHA-256 (hex) of what its entries carry, whatever the version
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
  -- version 2:
  written_path     TEXT,                 -- the path exactly as the config writes it
  options          TEXT,                 -- the format's options, a JSON object of strings
  max_removal_ratio REAL,                -- the source's own maxRemovalRatio, when set
  numbers          INTEGER,              -- distinct numbers the source gave (ranges counted in full)
  duplicates       INTEGER,              -- numbers it gave more than once
  unique_entries   INTEGER,              -- entries only it gives (allow: removals only it makes)
  absent           INTEGER NOT NULL DEFAULT 0,  -- 1 when its file was missing (published with --force)
  -- version 4: the source's evidence rules (NULL before version 4)
  min_reports      INTEGER,              -- minReports (1: any report)
  max_age_days     INTEGER,              -- maxAgeDays (NULL: any age)
  label_policy     TEXT,                 -- labelPolicy: first or mostFrequent
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

"""# + version2TablesSQL + version6TablesSQL

  /// The tables schema version 2 added, as `schemas/catalog.sql` ends.
  static let version2TablesSQL = #"""
-- Rejected data lines of each source by reason (the rejects report has every line).
CREATE TABLE source_rejects (
  version          INTEGER NOT NULL REFERENCES snapshots(version),
  position         INTEGER NOT NULL,
  reason           TEXT    NOT NULL,
  count            INTEGER NOT NULL,
  PRIMARY KEY (version, position, reason)
);

-- Versions that must never be used again although the catalog holds no
-- snapshot for them: a published file of that version was found damaged by
-- `calldir repair`, or its files were lost. The next version is always above
-- every snapshot and every retired version.
CREATE TABLE retired_versions (
  version          INTEGER PRIMARY KEY,
  retired_at       TEXT    NOT NULL,
  reason           TEXT    NOT NULL
);

-- Builds a guard refused: nothing was published, but the attempt is kept.
CREATE TABLE refusals (
  id               INTEGER PRIMARY KEY,
  attempted_at     TEXT    NOT NULL,
  version          INTEGER NOT NULL,     -- the version the build would have published
  kind             TEXT    NOT NULL,     -- rejectRatio, sourceRemoval, sourceEmpty, sourceVanished, listRemoval
  message          TEXT    NOT NULL,
  source           TEXT,                 -- the source at fault, as the config writes it
  rejects_path     TEXT                  -- the refused build's rejects report (under refused/)
);

"""#

  /// The tables schema version 6 added: what `calldir export
  /// live-caller-id` keeps between exports.
  static let version6TablesSQL = #"""
-- Live Caller ID Lookup: each use case's sizing, fixed for the dataset's life
-- (re-sized only when a shard outgrows its buckets, a value its bucket size,
-- or the config changes the shard count or RLWE parameters).
CREATE TABLE live_caller_id_use_cases (
  use_case         TEXT    PRIMARY KEY,  -- block or identity
  shard_count      INTEGER NOT NULL,     -- a power of two
  bucket_count     INTEGER NOT NULL,     -- the cuckoo table's fixed bucket count, every shard alike
  max_serialized_bucket_size INTEGER NOT NULL,  -- bytes one bucket may take
  rlwe_parameters  TEXT    NOT NULL,     -- the predefined parameters it was sized for
  sized_at         TEXT    NOT NULL,
  sized_by_export  INTEGER NOT NULL,     -- the export that sized it (live_caller_id_exports.id)
  reason           TEXT    NOT NULL      -- why it was sized then
);

-- Every export that finished, and the content digest of each of its shards:
-- the next export writes only the shards whose digests changed.
CREATE TABLE live_caller_id_exports (
  id               INTEGER PRIMARY KEY,
  exported_at      TEXT    NOT NULL,
  version          INTEGER NOT NULL,     -- the version exported
  output           TEXT    NOT NULL,     -- the output directory, absolute
  all_shards       INTEGER NOT NULL      -- 1 when run with --all
);

CREATE TABLE live_caller_id_export_shards (
  export_id        INTEGER NOT NULL REFERENCES live_caller_id_exports(id),
  use_case         TEXT    NOT NULL,     -- block or identity
  shard            INTEGER NOT NULL,     -- 0 … shard_count - 1
  rows             INTEGER NOT NULL,     -- rows of its input, padding included
  rows_digest      TEXT    NOT NULL,     -- SHA-256 (hex) of its KeywordDatabase input file
  config_digest    TEXT    NOT NULL,     -- SHA-256 (hex) of its PIRProcessDatabase config
  written          INTEGER NOT NULL,     -- 1 when this export wrote the shard's files
  PRIMARY KEY (export_id, use_case, shard)
);

"""#
}
