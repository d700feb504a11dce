-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "activity" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT,
    "schedule_label" TEXT,
    "action" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "owner_type" TEXT,
    "owner_id" TEXT,
    "details" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "activity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "activity_revision_id_created_at_id_idx" ON "activity"("revision_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "activity_schedule_id_created_at_id_idx" ON "activity"("schedule_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "activity_created_at_idx" ON "activity"("created_at");

-- AddForeignKey
ALTER TABLE "activity" ADD CONSTRAINT "activity_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

