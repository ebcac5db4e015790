-- The audit log and the account's ledger (mirrors migrations/sqlite/0005).
CREATE TABLE audit_log (
  id            BIGSERIAL PRIMARY KEY,
  account_id    BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  day           TEXT NOT NULL,
  at            TEXT NOT NULL,
  product       TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id   TEXT,
  action        TEXT NOT NULL,
  actor_id      TEXT NOT NULL,
  actor_type    TEXT NOT NULL,
  diff          TEXT
);
CREATE INDEX audit_log_by_day ON audit_log (account_id, day, id);
CREATE INDEX audit_log_by_age ON audit_log (day);

CREATE TABLE billing_records (
  id         BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  type       INTEGER NOT NULL,
  amount     DOUBLE PRECISION NOT NULL,
  at         TEXT NOT NULL,
  month      TEXT,
  payer      TEXT,
  details    TEXT
);
CREATE INDEX billing_records_by_account ON billing_records (account_id, id);
CREATE UNIQUE INDEX billing_records_by_month ON billing_records (account_id, month) WHERE month IS NOT NULL;
