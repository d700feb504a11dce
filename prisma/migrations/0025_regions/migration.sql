-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_schedule_groups" (
    "blob_id" TEXT NOT NULL PRIMARY KEY,
    "org_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tags" JSONB NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "schedule_groups_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Groups made before regions get region '' ("not placed yet"): the EventBridge API places them in the
-- home region (SCHEDULER_HOME_REGION) on their org's next request (docs/decisions.md 250).
INSERT INTO "new_schedule_groups" ("blob_id", "created_at", "name", "org_id", "region", "tags", "updated_at") SELECT "blob_id", "created_at", "name", "org_id", '', "tags", "updated_at" FROM "schedule_groups";
DROP TABLE "schedule_groups";
ALTER TABLE "new_schedule_groups" RENAME TO "schedule_groups";
CREATE UNIQUE INDEX "schedule_groups_org_id_region_name_key" ON "schedule_groups"("org_id", "region", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

