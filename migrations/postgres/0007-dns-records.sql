-- DNS records become rows of their own (mirrors migrations/sqlite/0006).
CREATE TABLE dns_records (
  zone_id    BIGINT NOT NULL,
  id         BIGINT NOT NULL,
  account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  position   BIGINT NOT NULL,
  type       INTEGER NOT NULL,
  link_id    BIGINT,
  doc        TEXT NOT NULL,
  PRIMARY KEY (zone_id, id)
);
CREATE UNIQUE INDEX dns_records_in_order ON dns_records (zone_id, position);
CREATE INDEX dns_records_by_link ON dns_records (account_id, link_id) WHERE link_id IS NOT NULL;

-- One announcement per rewritten zone would flood the change feed on a big store: this
-- transaction is a bulk change (migration 0004), and an instance that starts reloads everything.
SET LOCAL edgeplane.bulk = 'on';

-- `json`, not `jsonb`: each record keeps its exact text (key order included).
INSERT INTO dns_records (zone_id, id, account_id, position, type, link_id, doc)
SELECT z.id::bigint,
       (r.value->>'Id')::bigint,
       z.account_id,
       r.ordinality,
       (r.value->>'Type')::integer,
       CASE WHEN (r.value->>'Type')::integer IN (7, 11) AND r.value->>'LinkName' ~ '^[0-9]{1,15}$' AND (r.value->>'LinkName')::bigint > 0
            THEN (r.value->>'LinkName')::bigint END,
       r.value::text
FROM resources z
CROSS JOIN LATERAL json_array_elements(z.doc::json->'Records') WITH ORDINALITY AS r(value, ordinality)
WHERE z.kind = 'dnsZone' AND json_typeof(z.doc::json->'Records') = 'array'
ORDER BY z.rid, r.ordinality
ON CONFLICT DO NOTHING;

UPDATE resources SET doc = (doc::jsonb - 'Records')::text
WHERE kind = 'dnsZone' AND doc::jsonb ? 'Records';
