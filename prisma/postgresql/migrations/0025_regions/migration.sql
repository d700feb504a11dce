-- DropIndex
DROP INDEX "schedule_groups_org_id_name_key";

-- AlterTable
-- Groups made before regions get region '' ("not placed yet"): the EventBridge API places them in the
-- home region (SCHEDULER_HOME_REGION) on their org's next request (docs/decisions.md 250).
ALTER TABLE "schedule_groups" ADD COLUMN     "region" TEXT NOT NULL DEFAULT '';
ALTER TABLE "schedule_groups" ALTER COLUMN "region" DROP DEFAULT;

-- CreateIndex
CREATE UNIQUE INDEX "schedule_groups_org_id_region_name_key" ON "schedule_groups"("org_id", "region", "name");

