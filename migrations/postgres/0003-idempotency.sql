-- Responses remembered for `Idempotency-Key` retries (mirrors migrations/sqlite/0003).
CREATE TABLE idempotency_keys (
  account_id  BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  idem_key    TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status      INTEGER,
  response    TEXT,
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
