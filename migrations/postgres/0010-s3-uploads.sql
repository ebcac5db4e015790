-- S3 multipart uploads in progress (mirrors migrations/sqlite/0009). COLLATE "C": keys list in
-- byte order, as S3 lists them.
CREATE TABLE s3_uploads (
  upload_id    TEXT PRIMARY KEY,
  zone_id      TEXT NOT NULL,
  account_id   BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key          TEXT COLLATE "C" NOT NULL,
  content_type TEXT,
  meta         TEXT,
  created_at   TEXT NOT NULL
);
CREATE INDEX s3_uploads_by_zone ON s3_uploads (zone_id, key, upload_id);
CREATE TABLE s3_upload_parts (
  upload_id   TEXT NOT NULL REFERENCES s3_uploads(upload_id) ON DELETE CASCADE,
  part_number INTEGER NOT NULL,
  blob_key    TEXT NOT NULL,
  size        BIGINT NOT NULL,
  md5         TEXT NOT NULL,
  sha256      TEXT NOT NULL,
  uploaded_at TEXT NOT NULL,
  PRIMARY KEY (upload_id, part_number)
);
