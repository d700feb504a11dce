-- GET /metrics reads its whole-table figures from "metric_counters" (lib/schedules/fire-metrics.ts)
-- instead of counting every run and schedule at each scrape. The triggers below keep one row per
-- figure exact as rows are inserted, updated and deleted, cascaded deletes included (SQLite runs a
-- child table's triggers for ON DELETE CASCADE). Keys: `runs:<status>`, `schedules:<state>:<true|false>`,
-- `schedules_auto_paused`, `skipped_occurrences`, `pending_attempts`, `dead_letters`; SQLite uses shard 0 only.
--
-- Keep the triggers: a later migration that redefines one of these tables (Prisma's RedefineTables:
-- create new_<table>, copy, DROP, rename) drops its triggers with it and must create them again
-- (lib/schedules/__tests__/metric-counters.int.test.ts lists the triggers that must exist).
--
-- One transaction (Prisma runs a SQLite migration's statements one by one): no write of another
-- process lands between the triggers' creation and the counts that initialise the counters.
BEGIN IMMEDIATE;

-- CreateTable
CREATE TABLE "metric_counters" (
    "key" TEXT NOT NULL,
    "shard" BIGINT NOT NULL,
    "value" BIGINT NOT NULL,

    PRIMARY KEY ("key", "shard")
);

-- A schedule's runs newest first, one index range per status (list_executions with or without a
-- status filter, the grid's last run), instead of runs(schedule_id, created_at, id): the same number
-- of indexes for every fire to write.
CREATE INDEX "runs_schedule_id_status_created_at_id_idx" ON "runs"("schedule_id", "status", "created_at", "id");

-- DropIndex
DROP INDEX "runs_schedule_id_created_at_id_idx";

-- Runs by status. A run's status is written once today; the update trigger keeps the counts exact if it ever changes.
CREATE TRIGGER "metric_runs_insert" AFTER INSERT ON "runs" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('runs:' || NEW."status", 0, 1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_runs_delete" AFTER DELETE ON "runs" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('runs:' || OLD."status", 0, -1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_runs_update" AFTER UPDATE OF "status" ON "runs" WHEN OLD."status" IS NOT NEW."status" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('runs:' || OLD."status", 0, -1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('runs:' || NEW."status", 0, 1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;

-- Schedules by state and enabled flag, the automatic pauses still in force, and the skipped occurrences.
CREATE TRIGGER "metric_schedules_insert" AFTER INSERT ON "schedules" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value")
    VALUES ('schedules:' || NEW."state" || ':' || CASE WHEN NEW."enabled" THEN 'true' ELSE 'false' END, 0, 1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'skipped_occurrences', 0, NEW."skipped_occurrences" WHERE NEW."skipped_occurrences" <> 0
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'schedules_auto_paused', 0, 1 WHERE NOT NEW."enabled" AND NEW."paused_by_type" = 'system'
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_schedules_delete" AFTER DELETE ON "schedules" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value")
    VALUES ('schedules:' || OLD."state" || ':' || CASE WHEN OLD."enabled" THEN 'true' ELSE 'false' END, 0, -1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'skipped_occurrences', 0, -OLD."skipped_occurrences" WHERE OLD."skipped_occurrences" <> 0
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'schedules_auto_paused', 0, -1 WHERE NOT OLD."enabled" AND OLD."paused_by_type" = 'system'
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
-- Every fire's advance sets state and skipped_occurrences: the WHEN clause keeps that path to one comparison per row.
CREATE TRIGGER "metric_schedules_update" AFTER UPDATE OF "state", "enabled", "paused_by_type", "skipped_occurrences" ON "schedules"
  WHEN OLD."state" IS NOT NEW."state" OR OLD."enabled" IS NOT NEW."enabled"
    OR OLD."paused_by_type" IS NOT NEW."paused_by_type" OR OLD."skipped_occurrences" IS NOT NEW."skipped_occurrences"
BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'schedules:' || OLD."state" || ':' || CASE WHEN OLD."enabled" THEN 'true' ELSE 'false' END, 0, -1
    WHERE OLD."state" IS NOT NEW."state" OR OLD."enabled" IS NOT NEW."enabled"
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'schedules:' || NEW."state" || ':' || CASE WHEN NEW."enabled" THEN 'true' ELSE 'false' END, 0, 1
    WHERE OLD."state" IS NOT NEW."state" OR OLD."enabled" IS NOT NEW."enabled"
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'skipped_occurrences', 0, NEW."skipped_occurrences" - OLD."skipped_occurrences"
    WHERE NEW."skipped_occurrences" <> OLD."skipped_occurrences"
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
  INSERT INTO "metric_counters" ("key", "shard", "value")
    SELECT 'schedules_auto_paused', 0, a.n - a.o
    FROM (SELECT CASE WHEN NOT NEW."enabled" AND NEW."paused_by_type" = 'system' THEN 1 ELSE 0 END AS n,
                 CASE WHEN NOT OLD."enabled" AND OLD."paused_by_type" = 'system' THEN 1 ELSE 0 END AS o) AS a
    WHERE a.n <> a.o
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;

-- Attempts waiting (or in flight), and dead letters kept.
CREATE TRIGGER "metric_pending_attempts_insert" AFTER INSERT ON "pending_attempts" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('pending_attempts', 0, 1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_pending_attempts_delete" AFTER DELETE ON "pending_attempts" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('pending_attempts', 0, -1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_dead_letters_insert" AFTER INSERT ON "dead_letters" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('dead_letters', 0, 1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;
CREATE TRIGGER "metric_dead_letters_delete" AFTER DELETE ON "dead_letters" BEGIN
  INSERT INTO "metric_counters" ("key", "shard", "value") VALUES ('dead_letters', 0, -1)
    ON CONFLICT ("key", "shard") DO UPDATE SET "value" = "value" + excluded."value";
END;

-- The counters start from the rows already there.
INSERT INTO "metric_counters" ("key", "shard", "value") SELECT 'runs:' || "status", 0, COUNT(*) FROM "runs" GROUP BY "status";
INSERT INTO "metric_counters" ("key", "shard", "value")
  SELECT 'schedules:' || "state" || ':' || CASE WHEN "enabled" THEN 'true' ELSE 'false' END, 0, COUNT(*) FROM "schedules" GROUP BY 1;
INSERT INTO "metric_counters" ("key", "shard", "value") SELECT 'skipped_occurrences', 0, COALESCE(SUM("skipped_occurrences"), 0) FROM "schedules";
INSERT INTO "metric_counters" ("key", "shard", "value")
  SELECT 'schedules_auto_paused', 0, COUNT(*) FROM "schedules" WHERE NOT "enabled" AND "paused_by_type" = 'system';
INSERT INTO "metric_counters" ("key", "shard", "value") SELECT 'pending_attempts', 0, COUNT(*) FROM "pending_attempts";
INSERT INTO "metric_counters" ("key", "shard", "value") SELECT 'dead_letters', 0, COUNT(*) FROM "dead_letters";

COMMIT;
