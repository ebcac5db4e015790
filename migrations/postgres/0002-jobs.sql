-- Background jobs, claimed with FOR UPDATE SKIP LOCKED and a lease (mirrors migrations/sqlite/0002).
CREATE TABLE jobs (
  id           BIGSERIAL PRIMARY KEY,
  kind         TEXT NOT NULL,
  payload      TEXT NOT NULL,
  run_at       BIGINT NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0,
  locked_by    TEXT,
  locked_until BIGINT,
  last_error   TEXT
);
CREATE INDEX jobs_due ON jobs (run_at);
