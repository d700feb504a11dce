-- AlterTable
ALTER TABLE "worker_heartbeats" ADD COLUMN     "interval_ms" INTEGER NOT NULL DEFAULT 5000,
ADD COLUMN     "stopped_at" TIMESTAMP(3);

