-- The origin errors of pull zones (mirrors migrations/sqlite/0014).
CREATE TABLE origin_errors (
  id           BIGSERIAL PRIMARY KEY,
  account_id   BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  pull_zone_id BIGINT NOT NULL,
  day          INTEGER NOT NULL,
  at           BIGINT NOT NULL,
  log_id       TEXT NOT NULL,
  code         TEXT NOT NULL,
  status       INTEGER NOT NULL,
  message      TEXT NOT NULL,
  url          TEXT NOT NULL,
  labels       TEXT NOT NULL
);
CREATE INDEX origin_errors_by_zone_day ON origin_errors (pull_zone_id, day, id);
