-- An access log row holds every line one flush wrote for a zone (mirrors migrations/sqlite/0010).
ALTER TABLE access_log ADD COLUMN lines INTEGER NOT NULL DEFAULT 1;
