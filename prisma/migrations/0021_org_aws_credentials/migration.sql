-- AlterTable
ALTER TABLE "orgs" ADD COLUMN "aws_allowed_accounts" TEXT;
ALTER TABLE "orgs" ADD COLUMN "aws_credentials" TEXT;
ALTER TABLE "orgs" ADD COLUMN "aws_external_id" TEXT;

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN "dead_letter_role_arn" TEXT;

