-- DNS records become rows of their own: a record write touches its row and the zone's small row
-- (its serial), never the zone's whole record list. `position` keeps the zone's order (the order
-- records were added); `type` and `link_id` (the pull zone or script a record points at) are
-- copies of the record's fields, kept for the queries that filter on them.
CREATE TABLE dns_records (
  zone_id    INTEGER NOT NULL,
  id         INTEGER NOT NULL,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  type       INTEGER NOT NULL,
  link_id    INTEGER,
  doc        TEXT NOT NULL,
  PRIMARY KEY (zone_id, id)
);
CREATE UNIQUE INDEX dns_records_in_order ON dns_records (zone_id, position);
CREATE INDEX dns_records_by_link ON dns_records (account_id, link_id) WHERE link_id IS NOT NULL;

-- Every zone's records move out of its document, keeping their ids and their order. Zones whose
-- document has no Records left are not touched, so running this again changes nothing; a record
-- id repeated within one zone (never made by the API) keeps its first copy, as reads by id did.
INSERT INTO dns_records (zone_id, id, account_id, position, type, link_id, doc)
SELECT CAST(z.id AS INTEGER),
       json_extract(r.value, '$.Id'),
       z.account_id,
       r.key + 1,
       json_extract(r.value, '$.Type'),
       CASE WHEN json_extract(r.value, '$.Type') IN (7, 11) AND CAST(json_extract(r.value, '$.LinkName') AS INTEGER) > 0
            THEN CAST(json_extract(r.value, '$.LinkName') AS INTEGER) END,
       r.value
FROM resources z, json_each(z.doc, '$.Records') r
WHERE z.kind = 'dnsZone' AND json_type(z.doc, '$.Records') = 'array'
ORDER BY z.rid, r.key
ON CONFLICT DO NOTHING;

UPDATE resources SET doc = json_remove(doc, '$.Records')
WHERE kind = 'dnsZone' AND json_type(doc, '$.Records') IS NOT NULL;
