-- CreateTable
CREATE TABLE "signing_secrets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "blob_id" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "shown_at" DATETIME,
    "retired_at" DATETIME,
    CONSTRAINT "signing_secrets_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "blobs" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "signing_secrets_blob_id_generation_key" ON "signing_secrets"("blob_id", "generation");

