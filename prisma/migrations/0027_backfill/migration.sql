-- AlterTable
ALTER TABLE "schedules" ADD COLUMN "catch_up_window_seconds" INTEGER;
ALTER TABLE "schedules" ADD COLUMN "catch_up_mode" TEXT;
ALTER TABLE "schedules" ADD COLUMN "catch_up_max_burst" INTEGER;

-- CreateTable
CREATE TABLE "backfills" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "range_from" DATETIME NOT NULL,
    "range_to" DATETIME NOT NULL,
    "reprocess" TEXT NOT NULL,
    "max_concurrency" INTEGER NOT NULL,
    "fire_order" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "fired" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'running',
    "created_by_type" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "finished_at" DATETIME,
    CONSTRAINT "backfills_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "backfill_occurrences" (
    "backfill_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "scheduled_for" DATETIME NOT NULL,
    "fired_at" DATETIME,

    PRIMARY KEY ("backfill_id", "seq"),
    CONSTRAINT "backfill_occurrences_backfill_id_fkey" FOREIGN KEY ("backfill_id") REFERENCES "backfills" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "backfills_schedule_id_created_at_id_idx" ON "backfills"("schedule_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "backfills_revision_id_created_at_id_idx" ON "backfills"("revision_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "backfills_state_idx" ON "backfills"("state");

-- CreateIndex
CREATE UNIQUE INDEX "backfill_occurrences_backfill_id_scheduled_for_key" ON "backfill_occurrences"("backfill_id", "scheduled_for");

