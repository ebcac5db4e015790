-- An access log row holds every line one flush wrote for a zone (one JSON object per line,
-- oldest first): a busy zone costs the store one row a second, not one per request. Rows written
-- before hold one line each.
ALTER TABLE access_log ADD COLUMN lines INTEGER NOT NULL DEFAULT 1;
