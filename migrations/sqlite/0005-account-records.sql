-- The audit log: one row per write made through the API, kept per day (see domain/audit/log.ts).
-- Never a credential: the actor is a key's id, the diff names the fields sent, not their values.
CREATE TABLE audit_log (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
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
-- Retention removes whole days, oldest first, across accounts.
CREATE INDEX audit_log_by_age ON audit_log (day);

-- The account's ledger: funds the operator added or took back, and each closed month's statement
-- (its charges, line by line, frozen when the month was closed).
CREATE TABLE billing_records (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  type       INTEGER NOT NULL,
  amount     REAL NOT NULL,
  at         TEXT NOT NULL,
  month      TEXT,
  payer      TEXT,
  details    TEXT
);
CREATE INDEX billing_records_by_account ON billing_records (account_id, id);
-- One statement per account and month, even when two instances close the month at once.
CREATE UNIQUE INDEX billing_records_by_month ON billing_records (account_id, month) WHERE month IS NOT NULL;
