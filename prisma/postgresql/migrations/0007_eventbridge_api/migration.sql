-- AlterTable
ALTER TABLE "orgs" ADD COLUMN     "account_id" TEXT;

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "eventbridge" JSONB,
ADD COLUMN     "name" TEXT;

-- CreateTable
CREATE TABLE "access_keys" (
    "id" TEXT NOT NULL,
    "access_key_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "user_id" TEXT,
    "secret_ciphertext" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "access_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "schedule_groups" (
    "blob_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tags" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "schedule_groups_pkey" PRIMARY KEY ("blob_id")
);

-- CreateTable
CREATE TABLE "client_tokens" (
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "client_tokens_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "access_keys_access_key_id_key" ON "access_keys"("access_key_id");

-- CreateIndex
CREATE INDEX "access_keys_org_id_idx" ON "access_keys"("org_id");

-- CreateIndex
CREATE INDEX "access_keys_user_id_idx" ON "access_keys"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "schedule_groups_org_id_name_key" ON "schedule_groups"("org_id", "name");

-- CreateIndex
CREATE INDEX "client_tokens_expires_at_idx" ON "client_tokens"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "orgs_account_id_key" ON "orgs"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "schedules_revision_id_name_key" ON "schedules"("revision_id", "name");

-- AddForeignKey
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_keys" ADD CONSTRAINT "access_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedule_groups" ADD CONSTRAINT "schedule_groups_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill: a schedule made before the EventBridge API is named by its alias, else its id (SPEC §14).
UPDATE "schedules" SET "name" = COALESCE("alias", "id") WHERE "name" IS NULL;
