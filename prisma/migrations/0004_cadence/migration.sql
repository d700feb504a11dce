-- CreateTable
CREATE TABLE "pending_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "schedule_id" TEXT NOT NULL,
    "scheduled_for" DATETIME NOT NULL,
    "attempt" INTEGER NOT NULL,
    "due_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pending_attempts_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "dead_letters" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "schedule_label" TEXT NOT NULL,
    "scheduled_for" DATETIME NOT NULL,
    "attempts" INTEGER NOT NULL,
    "exhausted" TEXT NOT NULL,
    "last_run_id" TEXT NOT NULL,
    "last_status" TEXT NOT NULL,
    "last_result" JSONB NOT NULL,
    "invocation_target_type" TEXT NOT NULL,
    "invocation_target" JSONB NOT NULL,
    "dead_letter_arn" TEXT,
    "created_at" DATETIME NOT NULL,
    "replay_run_id" TEXT,
    "replay_status" TEXT,
    "replayed_at" DATETIME,
    CONSTRAINT "dead_letters_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    CONSTRAINT "schedules_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_schedules" ("alias", "created_at", "created_by_id", "created_by_type", "cron_expression", "description", "enabled", "end_date", "id", "invocation_target", "invocation_target_type", "invocation_time", "next_fire_at", "repeat", "revision_id", "skipped_occurrences", "start_date", "state", "timezone", "updated_at") SELECT "alias", "created_at", "created_by_id", "created_by_type", "cron_expression", "description", "enabled", "end_date", "id", "invocation_target", "invocation_target_type", "invocation_time", "next_fire_at", "repeat", "revision_id", "skipped_occurrences", "start_date", "state", "timezone", "updated_at" FROM "schedules";
DROP TABLE "schedules";
ALTER TABLE "new_schedules" RENAME TO "schedules";
CREATE INDEX "schedules_next_fire_at_idx" ON "schedules"("next_fire_at");
CREATE INDEX "schedules_revision_id_created_at_id_idx" ON "schedules"("revision_id", "created_at", "id");
CREATE INDEX "schedules_revision_id_state_enabled_idx" ON "schedules"("revision_id", "state", "enabled");
CREATE UNIQUE INDEX "schedules_revision_id_alias_key" ON "schedules"("revision_id", "alias");
CREATE TABLE "new_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "schedule_id" TEXT NOT NULL,
    "scheduled_for" DATETIME NOT NULL,
    "trigger" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "invocation_target_type" TEXT NOT NULL DEFAULT 'workflow',
    "invocation_target" JSONB NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "execution_id" TEXT,
    "next_attempt_at" DATETIME,
    "exhausted" TEXT,
    "dead_letter_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "runs_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_runs" ("created_at", "description", "execution_id", "id", "invocation_target", "invocation_target_type", "result", "schedule_id", "scheduled_for", "status", "trigger") SELECT "created_at", "description", "execution_id", "id", "invocation_target", "invocation_target_type", "result", "schedule_id", "scheduled_for", "status", "trigger" FROM "runs";
DROP TABLE "runs";
ALTER TABLE "new_runs" RENAME TO "runs";
CREATE INDEX "runs_schedule_id_created_at_id_idx" ON "runs"("schedule_id", "created_at", "id");
CREATE INDEX "runs_created_at_idx" ON "runs"("created_at");
CREATE UNIQUE INDEX "runs_schedule_id_scheduled_for_trigger_attempt_key" ON "runs"("schedule_id", "scheduled_for", "trigger", "attempt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "pending_attempts_due_at_idx" ON "pending_attempts"("due_at");

-- CreateIndex
CREATE UNIQUE INDEX "pending_attempts_schedule_id_scheduled_for_attempt_key" ON "pending_attempts"("schedule_id", "scheduled_for", "attempt");

-- CreateIndex
CREATE INDEX "dead_letters_revision_id_created_at_id_idx" ON "dead_letters"("revision_id", "created_at", "id");

