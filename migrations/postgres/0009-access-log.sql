-- The access log of pull zones whose logging is on (mirrors migrations/sqlite/0008).
CREATE TABLE access_log (
  id           BIGSERIAL PRIMARY KEY,
  account_id   BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  pull_zone_id BIGINT NOT NULL,
  at           BIGINT NOT NULL,
  entry        TEXT NOT NULL
);
CREATE INDEX access_log_by_zone ON access_log (pull_zone_id, id);
