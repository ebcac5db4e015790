-- Accounts, their API keys, and the resource documents.
CREATE TABLE accounts (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT NOT NULL,
  balance    REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
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
  last INTEGER NOT NULL
);

-- One table for every resource kind: the document is the resource as the API shows it; the other
-- columns exist only so the store can enforce ownership, unique names and links with indexes.
CREATE TABLE resources (
  rid        INTEGER PRIMARY KEY AUTOINCREMENT,
  kind       TEXT NOT NULL,
  id         TEXT NOT NULL,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT,
  parent_id  TEXT,
  link_id    TEXT,
  version    INTEGER NOT NULL DEFAULT 1,
  doc        TEXT NOT NULL
);
CREATE UNIQUE INDEX resources_by_id ON resources (kind, id);
CREATE INDEX resources_by_account ON resources (kind, account_id, rid);
CREATE UNIQUE INDEX resources_by_name ON resources (kind, name COLLATE NOCASE) WHERE name IS NOT NULL;
CREATE INDEX resources_by_parent ON resources (kind, parent_id, rid) WHERE parent_id IS NOT NULL;
CREATE INDEX resources_by_link ON resources (kind, link_id, rid) WHERE link_id IS NOT NULL;
