-- CreateIndex
CREATE INDEX "schedules_revision_id_state_enabled_idx" ON "schedules"("revision_id", "state", "enabled");

