-- CreateTable
CREATE TABLE "alert_channels" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "sealed" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "last_status" TEXT,
    "last_sent_at" TIMESTAMP(3),
    "last_answer" JSONB,

    CONSTRAINT "alert_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT,
    "events" TEXT NOT NULL,
    "failure_tolerance" INTEGER NOT NULL DEFAULT 1,
    "silence_seconds" INTEGER,
    "realert_interval_seconds" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rule_channels" (
    "rule_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,

    CONSTRAINT "alert_rule_channels_pkey" PRIMARY KEY ("rule_id","channel_id")
);

-- CreateTable
CREATE TABLE "alert_incidents" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "open_key" TEXT,
    "rounds" JSONB NOT NULL,
    "opened_at" TIMESTAMP(3) NOT NULL,
    "resolved_at" TIMESTAMP(3),

    CONSTRAINT "alert_incidents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" TEXT NOT NULL,
    "revision_id" TEXT NOT NULL,
    "schedule_id" TEXT NOT NULL,
    "incident_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "facts" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "due_at" TIMESTAMP(3),
    "sends" INTEGER NOT NULL DEFAULT 0,
    "answer" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_schedule_states" (
    "schedule_id" TEXT NOT NULL,
    "last_success_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_schedule_states_pkey" PRIMARY KEY ("schedule_id")
);

-- CreateIndex
CREATE INDEX "alert_channels_last_status_idx" ON "alert_channels"("last_status");

-- CreateIndex
CREATE UNIQUE INDEX "alert_channels_org_id_name_key" ON "alert_channels"("org_id", "name");

-- CreateIndex
CREATE INDEX "alert_rules_revision_id_idx" ON "alert_rules"("revision_id");

-- CreateIndex
CREATE INDEX "alert_rules_schedule_id_idx" ON "alert_rules"("schedule_id");

-- CreateIndex
CREATE INDEX "alert_rule_channels_channel_id_idx" ON "alert_rule_channels"("channel_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_incidents_open_key_key" ON "alert_incidents"("open_key");

-- CreateIndex
CREATE INDEX "alert_incidents_schedule_id_idx" ON "alert_incidents"("schedule_id");

-- CreateIndex
CREATE INDEX "alerts_revision_id_created_at_id_idx" ON "alerts"("revision_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "alerts_due_at_idx" ON "alerts"("due_at");

-- CreateIndex
CREATE INDEX "alerts_created_at_idx" ON "alerts"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "alerts_incident_id_event_channel_id_round_key" ON "alerts"("incident_id", "event", "channel_id", "round");

-- AddForeignKey
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

