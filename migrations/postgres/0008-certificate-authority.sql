-- The installation's local certificate authority (mirrors migrations/sqlite/0007): one row, created
-- by whichever instance first needs a certificate; the others read the same one.
CREATE TABLE certificate_authority (
  id              INTEGER PRIMARY KEY CHECK (id = 1),
  installation_id TEXT NOT NULL,
  certificate     TEXT NOT NULL,
  sealed_key      TEXT NOT NULL,
  created_at      TEXT NOT NULL
);
