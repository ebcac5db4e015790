-- Certificates the local authority issued and keeps, so that a start-up presents the one it
-- presented before instead of signing a new one (src/domain/certificates/issued-leaves.ts). A row
-- counts only while its installation id is the authority's (a loaded dump replaces the root).
CREATE TABLE kept_certificates (
  key             TEXT PRIMARY KEY,
  installation_id TEXT NOT NULL,
  certificate     TEXT NOT NULL,
  sealed_key      TEXT NOT NULL,
  serial          TEXT NOT NULL,
  not_before      TEXT NOT NULL,
  not_after       TEXT NOT NULL
);
