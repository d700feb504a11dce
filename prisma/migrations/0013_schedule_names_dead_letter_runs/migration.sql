-- Every schedule has a name (SPEC §14; docs/decisions.md 150). Rows saved without one (the seed's
-- demo schedule before this migration) are named as a product-API create names them: by the alias,
-- unless another schedule of the scheduler already holds that name; else by the id.
UPDATE "schedules" SET "name" = "alias"
  WHERE "name" IS NULL AND "alias" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "schedules" AS "other" WHERE "other"."revision_id" = "schedules"."revision_id" AND "other"."name" = "schedules"."alias");
UPDATE "schedules" SET "name" = "id" WHERE "name" IS NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_schedules" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "revision_id" TEXT NOT NULL,
    "alias" TEXT,
    "description" TEXT,
    "repeat" TEXT NOT NULL,
    "invocation_time" TEXT,
    "cron_expression" TEXT,
    "rate_expression" TEXT,
    "rate_anchor" DATETIME,
    "timezone" TEXT NOT NULL,
    "start_date" DATETIME,
    "end_date" DATETIME,
    "flexible_window_minutes" INTEGER,
    "retry_maximum_attempts" INTEGER,
    "retry_maximum_event_age_seconds" INTEGER,
    "dead_letter_arn" TEXT,
    "action_after_completion" TEXT NOT NULL DEFAULT 'none',
    "pause_after_failures" INTEGER,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "paused_by_type" TEXT,
    "paused_by_id" TEXT,
    "paused_at" DATETIME,
    "pause_note" TEXT,
    "paused_bulk" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'active',
    "invocation_target_type" TEXT NOT NULL DEFAULT 'workflow',
    "invocation_target" JSONB NOT NULL,
    "next_fire_at" DATETIME,
    "next_scheduled_for" DATETIME,
    "created_by_type" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "skipped_occurrences" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "eventbridge" JSONB,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "schedules_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_schedules" ("action_after_completion", "alias", "consecutive_failures", "created_at", "created_by_id", "created_by_type", "cron_expression", "dead_letter_arn", "description", "enabled", "end_date", "eventbridge", "flexible_window_minutes", "id", "invocation_target", "invocation_target_type", "invocation_time", "name", "next_fire_at", "next_scheduled_for", "pause_after_failures", "pause_note", "paused_at", "paused_bulk", "paused_by_id", "paused_by_type", "rate_anchor", "rate_expression", "repeat", "retry_maximum_attempts", "retry_maximum_event_age_seconds", "revision_id", "skipped_occurrences", "start_date", "state", "timezone", "updated_at", "version") SELECT "action_after_completion", "alias", "consecutive_failures", "created_at", "created_by_id", "created_by_type", "cron_expression", "dead_letter_arn", "description", "enabled", "end_date", "eventbridge", "flexible_window_minutes", "id", "invocation_target", "invocation_target_type", "invocation_time", "name", "next_fire_at", "next_scheduled_for", "pause_after_failures", "pause_note", "paused_at", "paused_bulk", "paused_by_id", "paused_by_type", "rate_anchor", "rate_expression", "repeat", "retry_maximum_attempts", "retry_maximum_event_age_seconds", "revision_id", "skipped_occurrences", "start_date", "state", "timezone", "updated_at", "version" FROM "schedules";
DROP TABLE "schedules";
ALTER TABLE "new_schedules" RENAME TO "schedules";
CREATE INDEX "schedules_next_fire_at_idx" ON "schedules"("next_fire_at");
CREATE INDEX "schedules_revision_id_created_at_id_idx" ON "schedules"("revision_id", "created_at", "id");
CREATE INDEX "schedules_revision_id_state_enabled_idx" ON "schedules"("revision_id", "state", "enabled");
CREATE UNIQUE INDEX "schedules_revision_id_alias_key" ON "schedules"("revision_id", "alias");
CREATE UNIQUE INDEX "schedules_revision_id_name_key" ON "schedules"("revision_id", "name");
-- The redefinition dropped the metric_* triggers of "schedules" (migration 0012): the same again.
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
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- A schedule's history finds whether each exhausted occurrence's dead letter is still listed (SPEC §12.3).
CREATE INDEX "dead_letters_last_run_id_idx" ON "dead_letters"("last_run_id");
