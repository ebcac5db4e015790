-- Files of storage zones: metadata here, bytes in the files backend (EDGEPLANE_FILES_URL).
-- Paths are relative to the zone root; directories end with '/'. Byte order (BINARY) is the
-- listing order, as S3 lists keys.
CREATE TABLE files (
  zone_id      TEXT NOT NULL,
  path         TEXT NOT NULL,
  parent       TEXT NOT NULL,
  account_id   INTEGER NOT NULL,
  is_dir       INTEGER NOT NULL,
  size         INTEGER NOT NULL,
  sha256       TEXT,
  md5          TEXT,
  content_type TEXT,
  guid         TEXT NOT NULL,
  blobs        TEXT NOT NULL,
  meta         TEXT,
  created_at   TEXT NOT NULL,
  changed_at   TEXT NOT NULL,
  PRIMARY KEY (zone_id, path)
) WITHOUT ROWID;
CREATE INDEX files_by_parent ON files (zone_id, parent, path);
-- Blob keys are `<zone>/<guid>[.<part>]`: the sweep of blobs nothing points at looks them up here.
CREATE INDEX files_by_guid ON files (zone_id, guid);

-- A zone's counters, exact once a write has answered (changed in the write's transaction).
CREATE TABLE storage_usage (
  zone_id    TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  files      INTEGER NOT NULL,
  bytes      INTEGER NOT NULL
);

-- Each day's closing counters, for the zone's statistics.
CREATE TABLE storage_usage_daily (
  zone_id TEXT NOT NULL,
  day     TEXT NOT NULL,
  files   INTEGER NOT NULL,
  bytes   INTEGER NOT NULL,
  PRIMARY KEY (zone_id, day)
) WITHOUT ROWID;

-- Blobs nothing points at any more, removed from the backend after a grace period.
CREATE TABLE dead_blobs (
  key     TEXT PRIMARY KEY,
  dead_at INTEGER NOT NULL
);
CREATE INDEX dead_blobs_due ON dead_blobs (dead_at);

-- Hourly counters of what the planes served (bytes, requests, queries).
CREATE TABLE usage_counters (
  subject TEXT NOT NULL,
  metric  TEXT NOT NULL,
  hour    INTEGER NOT NULL,
  value   INTEGER NOT NULL,
  PRIMARY KEY (subject, metric, hour)
) WITHOUT ROWID;
