-- CreateTable
CREATE TABLE "signing_secrets" (
    "id" TEXT NOT NULL,
    "blob_id" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "shown_at" TIMESTAMP(3),
    "retired_at" TIMESTAMP(3),

    CONSTRAINT "signing_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "signing_secrets_blob_id_generation_key" ON "signing_secrets"("blob_id", "generation");

-- AddForeignKey
ALTER TABLE "signing_secrets" ADD CONSTRAINT "signing_secrets_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

