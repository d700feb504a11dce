-- SPEC §16 outcomes: the schedule's completion deadline and overlap policy, each run's outcome, and
-- check-ins that arrive while an attempt is still in flight. Columns are added (ALTER TABLE), never
-- redefined, so the metric_* triggers of migration 0012 stay in place.

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN "completion_expect_seconds" INTEGER;
ALTER TABLE "schedules" ADD COLUMN "overlap_policy" TEXT NOT NULL DEFAULT 'allow_all';

-- AlterTable
ALTER TABLE "runs" ADD COLUMN "outcome" TEXT;
ALTER TABLE "runs" ADD COLUMN "started_at" DATETIME;
ALTER TABLE "runs" ADD COLUMN "finished_at" DATETIME;
ALTER TABLE "runs" ADD COLUMN "duration_ms" INTEGER;
ALTER TABLE "runs" ADD COLUMN "exit_code" INTEGER;
ALTER TABLE "runs" ADD COLUMN "outcome_message" TEXT;
ALTER TABLE "runs" ADD COLUMN "outcome_due_at" DATETIME;

-- AlterTable
ALTER TABLE "pending_attempts" ADD COLUMN "run_id" TEXT;
ALTER TABLE "pending_attempts" ADD COLUMN "checkin" JSONB;

-- CreateIndex
CREATE INDEX "runs_outcome_due_at_idx" ON "runs"("outcome_due_at");

-- CreateIndex
CREATE INDEX "runs_finished_at_idx" ON "runs"("finished_at");

-- CreateIndex
CREATE INDEX "pending_attempts_run_id_idx" ON "pending_attempts"("run_id");

-- AlterTable
ALTER TABLE "blobs" ADD COLUMN "metrics_per_schedule" BOOLEAN NOT NULL DEFAULT false;
