-- The id sequences of the resources with integer ids (src/store/postgres/sequences.ts), made once
-- here rather than each on its first use: a new store has them all, and an instance learns them in
-- one query when it opens instead of opening a connection to make sure of each. A sequence not
-- listed here is still made on its first use.
CREATE SEQUENCE IF NOT EXISTS seq_dns_zone;
CREATE SEQUENCE IF NOT EXISTS seq_dns_record;
CREATE SEQUENCE IF NOT EXISTS seq_pull_zone;
CREATE SEQUENCE IF NOT EXISTS seq_hostname;
CREATE SEQUENCE IF NOT EXISTS seq_storage_zone;
CREATE SEQUENCE IF NOT EXISTS seq_video_library;
CREATE SEQUENCE IF NOT EXISTS seq_container_registry;
CREATE SEQUENCE IF NOT EXISTS seq_s3_upload_part;
