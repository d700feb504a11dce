-- DropIndex
DROP INDEX "runs_schedule_id_scheduled_for_trigger_key";

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "action_after_completion" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "dead_letter_arn" TEXT,
ADD COLUMN     "flexible_window_minutes" INTEGER,
ADD COLUMN     "next_scheduled_for" TIMESTAMP(3),
ADD COLUMN     "pause_after_failures" INTEGER,
ADD COLUMN     "pause_note" TEXT,
ADD COLUMN     "paused_at" TIMESTAMP(3),
ADD COLUMN     "paused_bulk" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "paused_by_id" TEXT,
ADD COLUMN     "paused_by_type" TEXT,
ADD COLUMN     "rate_anchor" TIMESTAMP(3),
ADD COLUMN     "rate_expression" TEXT,
ADD COLUMN     "retry_maximum_attempts" INTEGER,
ADD COLUMN     "retry_maximum_event_age_seconds" INTEGER;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "dead_letter_id" TEXT,
ADD COLUMN     "exhausted" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "pending_attempts" (
    "id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "scheduled_for" TIMESTAMP(3) NOT NULL,
    "attempt" INTEGER NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dead_letters" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "schedule_label" TEXT NOT NULL,
    "scheduled_for" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL,
    "exhausted" TEXT NOT NULL,
    "last_run_id" TEXT NOT NULL,
    "last_status" TEXT NOT NULL,
    "last_result" JSONB NOT NULL,
    "invocation_target_type" TEXT NOT NULL,
    "invocation_target" JSONB NOT NULL,
    "dead_letter_arn" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "replay_run_id" TEXT,
    "replay_status" TEXT,
    "replayed_at" TIMESTAMP(3),

    CONSTRAINT "dead_letters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pending_attempts_due_at_idx" ON "pending_attempts"("due_at");

-- CreateIndex
CREATE UNIQUE INDEX "pending_attempts_schedule_id_scheduled_for_attempt_key" ON "pending_attempts"("schedule_id", "scheduled_for", "attempt");

-- CreateIndex
CREATE INDEX "dead_letters_revision_id_created_at_id_idx" ON "dead_letters"("revision_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "runs_schedule_id_scheduled_for_trigger_attempt_key" ON "runs"("schedule_id", "scheduled_for", "trigger", "attempt");

-- AddForeignKey
ALTER TABLE "pending_attempts" ADD CONSTRAINT "pending_attempts_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dead_letters" ADD CONSTRAINT "dead_letters_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

