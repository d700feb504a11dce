-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_pending_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "schedule_id" TEXT NOT NULL,
    "scheduled_for" DATETIME NOT NULL,
    "trigger" TEXT NOT NULL DEFAULT 'schedule',
    "attempt" INTEGER NOT NULL,
    "due_at" DATETIME NOT NULL,
    "in_flight" BOOLEAN NOT NULL DEFAULT false,
    "deliveries" INTEGER NOT NULL DEFAULT 0,
    "dead_letter_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pending_attempts_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_pending_attempts" ("attempt", "created_at", "due_at", "id", "schedule_id", "scheduled_for") SELECT "attempt", "created_at", "due_at", "id", "schedule_id", "scheduled_for" FROM "pending_attempts";
DROP TABLE "pending_attempts";
ALTER TABLE "new_pending_attempts" RENAME TO "pending_attempts";
CREATE INDEX "pending_attempts_due_at_idx" ON "pending_attempts"("due_at");
CREATE UNIQUE INDEX "pending_attempts_schedule_id_scheduled_for_trigger_attempt_key" ON "pending_attempts"("schedule_id", "scheduled_for", "trigger", "attempt");
CREATE TABLE "new_dead_letters" (
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
    "last_request" JSONB,
    "sqs_status" TEXT,
    "sqs_due_at" DATETIME,
    "sqs_attempts" INTEGER NOT NULL DEFAULT 0,
    "sqs_result" JSONB,
    "created_at" DATETIME NOT NULL,
    "replay_run_id" TEXT,
    "replay_status" TEXT,
    "replayed_at" DATETIME,
    CONSTRAINT "dead_letters_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_dead_letters" ("attempts", "created_at", "dead_letter_arn", "exhausted", "id", "invocation_target", "invocation_target_type", "last_result", "last_run_id", "last_status", "replay_run_id", "replay_status", "replayed_at", "revision_id", "schedule_id", "schedule_label", "scheduled_for") SELECT "attempts", "created_at", "dead_letter_arn", "exhausted", "id", "invocation_target", "invocation_target_type", "last_result", "last_run_id", "last_status", "replay_run_id", "replay_status", "replayed_at", "revision_id", "schedule_id", "schedule_label", "scheduled_for" FROM "dead_letters";
DROP TABLE "dead_letters";
ALTER TABLE "new_dead_letters" RENAME TO "dead_letters";
CREATE INDEX "dead_letters_revision_id_created_at_id_idx" ON "dead_letters"("revision_id", "created_at", "id");
CREATE INDEX "dead_letters_sqs_due_at_idx" ON "dead_letters"("sqs_due_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

