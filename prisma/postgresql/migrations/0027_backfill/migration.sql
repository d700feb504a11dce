-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "catch_up_window_seconds" INTEGER,
ADD COLUMN     "catch_up_mode" TEXT,
ADD COLUMN     "catch_up_max_burst" INTEGER;

-- CreateTable
CREATE TABLE "backfills" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "range_from" TIMESTAMP(3) NOT NULL,
    "range_to" TIMESTAMP(3) NOT NULL,
    "reprocess" TEXT NOT NULL,
    "max_concurrency" INTEGER NOT NULL,
    "fire_order" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "fired" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'running',
    "created_by_type" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "backfills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backfill_occurrences" (
    "backfill_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "scheduled_for" TIMESTAMP(3) NOT NULL,
    "fired_at" TIMESTAMP(3),

    CONSTRAINT "backfill_occurrences_pkey" PRIMARY KEY ("backfill_id","seq")
);

-- CreateIndex
CREATE INDEX "backfills_schedule_id_created_at_id_idx" ON "backfills"("schedule_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "backfills_revision_id_created_at_id_idx" ON "backfills"("revision_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "backfills_state_idx" ON "backfills"("state");

-- CreateIndex
CREATE UNIQUE INDEX "backfill_occurrences_backfill_id_scheduled_for_key" ON "backfill_occurrences"("backfill_id", "scheduled_for");

-- AddForeignKey
ALTER TABLE "backfills" ADD CONSTRAINT "backfills_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backfill_occurrences" ADD CONSTRAINT "backfill_occurrences_backfill_id_fkey" FOREIGN KEY ("backfill_id") REFERENCES "backfills"("id") ON DELETE CASCADE ON UPDATE CASCADE;

