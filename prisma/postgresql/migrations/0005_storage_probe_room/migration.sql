-- AlterTable
ALTER TABLE "storage_probes" ADD COLUMN     "room" TEXT;

