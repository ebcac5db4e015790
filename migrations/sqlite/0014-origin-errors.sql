-- The origin errors of pull zones: each request the edge could not get from a zone's origin (DNS
-- lookup, connection, timeout), written in batches by the edge (domain/edge/origin/origin-errors.ts)
-- and read back by the logging plane's origin errors API. `day` is the UTC day (epoch days): a
-- zone keeps at most a bounded number a day, and days past the access log's retention go.
CREATE TABLE origin_errors (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  pull_zone_id INTEGER NOT NULL,
  day          INTEGER NOT NULL,
  at           INTEGER NOT NULL,
  log_id       TEXT NOT NULL,
  code         TEXT NOT NULL,
  status       INTEGER NOT NULL,
  message      TEXT NOT NULL,
  url          TEXT NOT NULL,
  labels       TEXT NOT NULL
);
CREATE INDEX origin_errors_by_zone_day ON origin_errors (pull_zone_id, day, id);
