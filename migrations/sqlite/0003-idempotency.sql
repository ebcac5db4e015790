-- Responses remembered for `Idempotency-Key` retries (src/http/plugins/idempotency.ts). A row
-- without a status belongs to a request still in flight. The response is sealed like any stored
-- credential, since a create's response can carry one. Rows older than a day are purged.
CREATE TABLE idempotency_keys (
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  idem_key    TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status      INTEGER,
  response    TEXT,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
