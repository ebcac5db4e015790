-- The installation's local certificate authority (src/domain/certificates/): one row, created the
-- first time a certificate is needed and shared by every process on this database. The private
-- key is sealed with the master key like every stored credential.
CREATE TABLE certificate_authority (
  id              INTEGER PRIMARY KEY CHECK (id = 1),
  installation_id TEXT NOT NULL,
  certificate     TEXT NOT NULL,
  sealed_key      TEXT NOT NULL,
  created_at      TEXT NOT NULL
);
