-- GET /metrics reads its whole-table figures from "metric_counters" (lib/schedules/fire-metrics.ts)
-- instead of counting every run and schedule at each scrape. The triggers below keep them exact as
-- rows are inserted, updated and deleted, cascaded deletes included (PostgreSQL's ON DELETE CASCADE
-- runs the child table's triggers). Keys: `runs:<status>`, `schedules:<state>:<true|false>`,
-- `schedules_auto_paused`, `skipped_occurrences`, `pending_attempts`, `dead_letters`. A figure is the
-- SUM of "value" over its rows (its shards).
--
-- Statement-level triggers with transition tables: a 500-row batch insert adds to each counter once,
-- and a statement that changes no counted column (a fire's advance of next_fire_at) writes nothing.
--
-- Shards, so concurrent writers never wait on one hot row: `metric_counters_add` adds to the first
-- row of the key that no other open transaction holds (FOR UPDATE SKIP LOCKED), and only when every
-- row of the key is held elsewhere inserts a new row keyed by its own transaction id. It never waits
-- for a lock, so it cannot deadlock; a key has at most as many rows as transactions ever wrote it at
-- once (bounded by the connection pools). The migration runner applies this file in one transaction:
-- CREATE TRIGGER locks each table against writes until the commit, so the initial counts below and
-- the triggers see exactly the same rows.

-- CreateTable
CREATE TABLE "metric_counters" (
    "key" TEXT NOT NULL,
    "shard" BIGINT NOT NULL,
    "value" BIGINT NOT NULL,

    CONSTRAINT "metric_counters_pkey" PRIMARY KEY ("key","shard")
);

-- A schedule's runs newest first, one index range per status (list_executions with or without a
-- status filter, the grid's last run), instead of runs(schedule_id, created_at, id): the same number
-- of indexes for every fire to write.
CREATE INDEX "runs_schedule_id_status_created_at_id_idx" ON "runs"("schedule_id", "status", "created_at", "id");

-- DropIndex
DROP INDEX "runs_schedule_id_created_at_id_idx";

CREATE FUNCTION metric_counters_add(counter text, delta bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  picked bigint;
BEGIN
  IF delta = 0 THEN
    RETURN;
  END IF;
  -- Two statements, not one UPDATE over a sub-select: this UPDATE's snapshot is taken after the lock,
  -- so it sees the row as the last committed writer left it.
  SELECT shard INTO picked FROM metric_counters WHERE key = counter ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF FOUND THEN
    UPDATE metric_counters SET value = value + delta WHERE key = counter AND shard = picked;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  -- Every row of the key is held by another open transaction (or the key is new): a row of our own.
  INSERT INTO metric_counters (key, shard, value) VALUES (counter, txid_current(), delta)
    ON CONFLICT (key, shard) DO UPDATE SET value = metric_counters.value + excluded.value;
END $$;

-- Runs by status.
CREATE FUNCTION metric_runs_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT 'runs:' || status AS k, COUNT(*) AS n FROM new_rows GROUP BY status ORDER BY 1 LOOP
      PERFORM metric_counters_add(d.k, d.n);
    END LOOP;
  ELSE
    FOR d IN SELECT 'runs:' || status AS k, -COUNT(*) AS n FROM old_rows GROUP BY status ORDER BY 1 LOOP
      PERFORM metric_counters_add(d.k, d.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER metric_runs_insert AFTER INSERT ON "runs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_runs_rows();
CREATE TRIGGER metric_runs_delete AFTER DELETE ON "runs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_runs_rows();
-- A run's status is written once today (updates touch exhausted / next_attempt_at): a row trigger
-- whose WHEN is false costs nothing, and keeps the counts exact if a status ever changes.
CREATE FUNCTION metric_runs_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM metric_counters_add('runs:' || OLD.status, -1);
  PERFORM metric_counters_add('runs:' || NEW.status, 1);
  RETURN NULL;
END $$;
CREATE TRIGGER metric_runs_update AFTER UPDATE OF status ON "runs"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION metric_runs_status();

-- Schedules by state and enabled flag, the automatic pauses still in force, and the skipped occurrences:
-- each statement's rows counted +1 (new) and -1 (old), keys whose sum is 0 left alone.
CREATE FUNCTION metric_schedules_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN
      WITH c AS MATERIALIZED (SELECT state, enabled, paused_by_type, skipped_occurrences, 1 AS sign FROM new_rows)
      SELECT k, n FROM (
        SELECT 'schedules:' || state || ':' || enabled::text AS k, SUM(sign) AS n FROM c GROUP BY 1
        UNION ALL SELECT 'skipped_occurrences', SUM(sign * skipped_occurrences) FROM c
        UNION ALL SELECT 'schedules_auto_paused', SUM(sign) FILTER (WHERE NOT enabled AND paused_by_type = 'system') FROM c
      ) AS x WHERE n <> 0 ORDER BY k
    LOOP
      PERFORM metric_counters_add(d.k, d.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN
      WITH c AS MATERIALIZED (SELECT state, enabled, paused_by_type, skipped_occurrences, -1 AS sign FROM old_rows)
      SELECT k, n FROM (
        SELECT 'schedules:' || state || ':' || enabled::text AS k, SUM(sign) AS n FROM c GROUP BY 1
        UNION ALL SELECT 'skipped_occurrences', SUM(sign * skipped_occurrences) FROM c
        UNION ALL SELECT 'schedules_auto_paused', SUM(sign) FILTER (WHERE NOT enabled AND paused_by_type = 'system') FROM c
      ) AS x WHERE n <> 0 ORDER BY k
    LOOP
      PERFORM metric_counters_add(d.k, d.n);
    END LOOP;
  ELSE
    FOR d IN
      WITH c AS MATERIALIZED (
        SELECT state, enabled, paused_by_type, skipped_occurrences, 1 AS sign FROM new_rows
        UNION ALL SELECT state, enabled, paused_by_type, skipped_occurrences, -1 FROM old_rows)
      SELECT k, n FROM (
        SELECT 'schedules:' || state || ':' || enabled::text AS k, SUM(sign) AS n FROM c GROUP BY 1
        UNION ALL SELECT 'skipped_occurrences', SUM(sign * skipped_occurrences) FROM c
        UNION ALL SELECT 'schedules_auto_paused', SUM(sign) FILTER (WHERE NOT enabled AND paused_by_type = 'system') FROM c
      ) AS x WHERE n <> 0 ORDER BY k
    LOOP
      PERFORM metric_counters_add(d.k, d.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER metric_schedules_insert AFTER INSERT ON "schedules" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_schedules_rows();
CREATE TRIGGER metric_schedules_update AFTER UPDATE ON "schedules" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_schedules_rows();
CREATE TRIGGER metric_schedules_delete AFTER DELETE ON "schedules" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_schedules_rows();

-- Attempts waiting (or in flight), and dead letters kept: one counter each, named by the trigger's argument.
CREATE FUNCTION metric_rows_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM metric_counters_add(TG_ARGV[0], (SELECT COUNT(*) FROM new_rows));
  ELSE
    PERFORM metric_counters_add(TG_ARGV[0], -(SELECT COUNT(*) FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER metric_pending_attempts_insert AFTER INSERT ON "pending_attempts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_counted('pending_attempts');
CREATE TRIGGER metric_pending_attempts_delete AFTER DELETE ON "pending_attempts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_counted('pending_attempts');
CREATE TRIGGER metric_dead_letters_insert AFTER INSERT ON "dead_letters" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_counted('dead_letters');
CREATE TRIGGER metric_dead_letters_delete AFTER DELETE ON "dead_letters" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_counted('dead_letters');

-- The counters start from the rows already there (the triggers above hold each table's lock until commit).
INSERT INTO metric_counters (key, shard, value) SELECT 'runs:' || status, 0, COUNT(*) FROM "runs" GROUP BY status;
INSERT INTO metric_counters (key, shard, value)
  SELECT 'schedules:' || state || ':' || enabled::text, 0, COUNT(*) FROM "schedules" GROUP BY 1;
INSERT INTO metric_counters (key, shard, value) SELECT 'skipped_occurrences', 0, COALESCE(SUM(skipped_occurrences), 0) FROM "schedules";
INSERT INTO metric_counters (key, shard, value)
  SELECT 'schedules_auto_paused', 0, COUNT(*) FROM "schedules" WHERE NOT enabled AND paused_by_type = 'system';
INSERT INTO metric_counters (key, shard, value) SELECT 'pending_attempts', 0, COUNT(*) FROM "pending_attempts";
INSERT INTO metric_counters (key, shard, value) SELECT 'dead_letters', 0, COUNT(*) FROM "dead_letters";
