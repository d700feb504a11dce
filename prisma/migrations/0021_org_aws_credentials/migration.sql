-- AlterTable
ALTER TABLE "schedules" ADD COLUMN "dead_letter_role_arn" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_orgs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alias" TEXT,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "account_id" TEXT,
    "aws_credentials" TEXT NOT NULL DEFAULT 'role',
    "aws_external_id" TEXT,
    "aws_allowed_accounts" TEXT
);
INSERT INTO "new_orgs" ("account_id", "alias", "created_at", "id", "name") SELECT "account_id", "alias", "created_at", "id", "name" FROM "orgs";
DROP TABLE "orgs";
ALTER TABLE "new_orgs" RENAME TO "orgs";
CREATE UNIQUE INDEX "orgs_alias_key" ON "orgs"("alias");
CREATE UNIQUE INDEX "orgs_account_id_key" ON "orgs"("account_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

