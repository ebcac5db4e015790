-- Background jobs: stored, so they survive restarts; claimed with a lease, so each runs once even
-- when several instances poll the same database.
CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT NOT NULL,
  payload      TEXT NOT NULL,
  run_at       INTEGER NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0,
  locked_by    TEXT,
  locked_until INTEGER,
  last_error   TEXT
);
CREATE INDEX jobs_due ON jobs (run_at);
