-- DropIndex
DROP INDEX "users_email_key";

-- AlterTable
ALTER TABLE "invitations" ALTER COLUMN "role" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");

