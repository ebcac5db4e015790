-- Accounts, their API keys, and the resource documents (mirrors migrations/sqlite/0001).
CREATE TABLE accounts (
  id         BIGSERIAL PRIMARY KEY,
  name       TEXT NOT NULL,
  balance    DOUBLE PRECISION NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id          BIGSERIAL PRIMARY KEY,
  account_id  BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('account', 'personal')),
  roles       TEXT NOT NULL,
  lookup_hash TEXT NOT NULL UNIQUE,
  sealed_key  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, id) WHERE revoked_at IS NULL;

CREATE TABLE sequences (
  name TEXT PRIMARY KEY,
  last BIGINT NOT NULL
);

-- Documents are kept as text: the server never queries inside them, and text round-trips the
-- exact bytes (jsonb would reorder keys and cost a parse on every write).
CREATE TABLE resources (
  rid        BIGSERIAL PRIMARY KEY,
  kind       TEXT NOT NULL,
  id         TEXT NOT NULL,
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT,
  parent_id  TEXT,
  link_id    TEXT,
  version    INTEGER NOT NULL DEFAULT 1,
  doc        TEXT NOT NULL
);
CREATE UNIQUE INDEX resources_by_id ON resources (kind, id);
CREATE INDEX resources_by_account ON resources (kind, account_id, rid);
CREATE UNIQUE INDEX resources_by_name ON resources (kind, lower(name)) WHERE name IS NOT NULL;
CREATE INDEX resources_by_parent ON resources (kind, parent_id, rid) WHERE parent_id IS NOT NULL;
CREATE INDEX resources_by_link ON resources (kind, link_id, rid) WHERE link_id IS NOT NULL;
