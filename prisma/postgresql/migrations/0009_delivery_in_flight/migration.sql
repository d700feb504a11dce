-- DropIndex
DROP INDEX "pending_attempts_schedule_id_scheduled_for_attempt_key";

-- AlterTable
ALTER TABLE "pending_attempts" ADD COLUMN     "dead_letter_id" TEXT,
ADD COLUMN     "deliveries" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "in_flight" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "trigger" TEXT NOT NULL DEFAULT 'schedule';

-- AlterTable
ALTER TABLE "dead_letters" ADD COLUMN     "last_request" JSONB,
ADD COLUMN     "sqs_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "sqs_due_at" TIMESTAMP(3),
ADD COLUMN     "sqs_result" JSONB,
ADD COLUMN     "sqs_status" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "pending_attempts_schedule_id_scheduled_for_trigger_attempt_key" ON "pending_attempts"("schedule_id", "scheduled_for", "trigger", "attempt");

-- CreateIndex
CREATE INDEX "dead_letters_sqs_due_at_idx" ON "dead_letters"("sqs_due_at");

