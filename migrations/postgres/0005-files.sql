-- Files of storage zones (mirrors migrations/sqlite/0004). COLLATE "C": byte order is the listing
-- order, as S3 lists keys, and prefix ranges use plain comparisons.
CREATE TABLE files (
  zone_id      TEXT NOT NULL,
  path         TEXT COLLATE "C" NOT NULL,
  parent       TEXT COLLATE "C" NOT NULL,
  account_id   BIGINT NOT NULL,
  is_dir       BOOLEAN NOT NULL,
  size         BIGINT NOT NULL,
  sha256       TEXT,
  md5          TEXT,
  content_type TEXT,
  guid         TEXT NOT NULL,
  blobs        TEXT NOT NULL,
  meta         TEXT,
  created_at   TEXT NOT NULL,
  changed_at   TEXT NOT NULL,
  PRIMARY KEY (zone_id, path)
);
CREATE INDEX files_by_parent ON files (zone_id, parent, path);
-- Blob keys are `<zone>/<guid>[.<part>]`: the sweep of blobs nothing points at looks them up here.
CREATE INDEX files_by_guid ON files (zone_id, guid);

CREATE TABLE storage_usage (
  zone_id    TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL,
  files      BIGINT NOT NULL,
  bytes      BIGINT NOT NULL
);

CREATE TABLE storage_usage_daily (
  zone_id TEXT NOT NULL,
  day     TEXT NOT NULL,
  files   BIGINT NOT NULL,
  bytes   BIGINT NOT NULL,
  PRIMARY KEY (zone_id, day)
);

CREATE TABLE dead_blobs (
  key     TEXT PRIMARY KEY,
  dead_at BIGINT NOT NULL
);
CREATE INDEX dead_blobs_due ON dead_blobs (dead_at);

CREATE TABLE usage_counters (
  subject TEXT NOT NULL,
  metric  TEXT NOT NULL,
  hour    BIGINT NOT NULL,
  value   BIGINT NOT NULL,
  PRIMARY KEY (subject, metric, hour)
);
