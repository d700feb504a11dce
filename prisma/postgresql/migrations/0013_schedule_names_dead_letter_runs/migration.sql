-- Every schedule has a name (SPEC §14; docs/decisions.md 150). Rows saved without one (the seed's
-- demo schedule before this migration) are named as a product-API create names them: by the alias,
-- unless another schedule of the scheduler already holds that name; else by the id.
UPDATE "schedules" SET "name" = "alias"
  WHERE "name" IS NULL AND "alias" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "schedules" AS "other" WHERE "other"."revision_id" = "schedules"."revision_id" AND "other"."name" = "schedules"."alias");
UPDATE "schedules" SET "name" = "id" WHERE "name" IS NULL;

-- AlterTable
ALTER TABLE "schedules" ALTER COLUMN "name" SET NOT NULL;

-- A schedule's history finds whether each exhausted occurrence's dead letter is still listed (SPEC §12.3).
CREATE INDEX "dead_letters_last_run_id_idx" ON "dead_letters"("last_run_id");
