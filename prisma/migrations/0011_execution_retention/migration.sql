-- CreateIndex
CREATE INDEX "executions_created_at_id_idx" ON "executions"("created_at", "id");

