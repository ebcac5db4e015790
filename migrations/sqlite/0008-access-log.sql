-- The access log of pull zones whose logging is on: the newest requests each zone served, bounded
-- per zone by the edge (domain/edge/usage/access-log.ts), readable by the operator and the CLI.
CREATE TABLE access_log (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  pull_zone_id INTEGER NOT NULL,
  at           INTEGER NOT NULL,
  entry        TEXT NOT NULL
);
CREATE INDEX access_log_by_zone ON access_log (pull_zone_id, id);
