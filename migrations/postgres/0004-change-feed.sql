-- The change feed across instances: every committed write to a resource or an API key is announced
-- on a channel of this schema, so each instance drops what it keeps in memory about that row.
-- NOTIFY is transactional (delivered on commit, never for a rolled-back write), and a trigger
-- catches every writer: the server, the CLI, an import, or an operator's own SQL.
-- Payload: `<instance>|doc|<kind>|<account>|<id>`, `<instance>|apiKey|<account>|<id>`, `<instance>|all`;
-- <instance> is the writer's `edgeplane.instance` setting, so an instance can skip its own news.
CREATE FUNCTION edgeplane_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel TEXT := 'edgeplane_' || md5(TG_TABLE_SCHEMA);
  origin TEXT := coalesce(current_setting('edgeplane.instance', true), '');
  row_changed RECORD;
BEGIN
  -- A bulk load announces itself once, as `all`, instead of once per row.
  IF current_setting('edgeplane.bulk', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify(channel, origin || '|all');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    row_changed := OLD;
  ELSE
    row_changed := NEW;
  END IF;
  IF TG_TABLE_NAME = 'resources' THEN
    PERFORM pg_notify(channel, origin || '|doc|' || row_changed.kind || '|' || row_changed.account_id || '|' || row_changed.id);
  ELSE
    PERFORM pg_notify(channel, origin || '|apiKey|' || row_changed.account_id || '|' || row_changed.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER resources_announce AFTER INSERT OR UPDATE OR DELETE ON resources
  FOR EACH ROW EXECUTE FUNCTION edgeplane_announce_change();
CREATE TRIGGER resources_announce_truncate AFTER TRUNCATE ON resources
  FOR EACH STATEMENT EXECUTE FUNCTION edgeplane_announce_change();
CREATE TRIGGER api_keys_announce AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION edgeplane_announce_change();
CREATE TRIGGER api_keys_announce_truncate AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION edgeplane_announce_change();
