-- SPEC §16 outcomes: the schedule's completion deadline and overlap policy, each run's outcome, and
-- check-ins that arrive while an attempt is still in flight.
-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "completion_expect_seconds" INTEGER,
ADD COLUMN     "overlap_policy" TEXT NOT NULL DEFAULT 'allow_all';

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "duration_ms" INTEGER,
ADD COLUMN     "exit_code" INTEGER,
ADD COLUMN     "finished_at" TIMESTAMP(3),
ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "outcome_due_at" TIMESTAMP(3),
ADD COLUMN     "outcome_message" TEXT,
ADD COLUMN     "started_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "pending_attempts" ADD COLUMN     "checkin" JSONB,
ADD COLUMN     "run_id" TEXT;

-- CreateIndex
CREATE INDEX "runs_outcome_due_at_idx" ON "runs"("outcome_due_at");

-- CreateIndex
CREATE INDEX "runs_finished_at_idx" ON "runs"("finished_at");

-- CreateIndex
CREATE INDEX "pending_attempts_run_id_idx" ON "pending_attempts"("run_id");

-- AlterTable
ALTER TABLE "blobs" ADD COLUMN "metrics_per_schedule" BOOLEAN NOT NULL DEFAULT false;
