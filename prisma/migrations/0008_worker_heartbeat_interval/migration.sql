-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_worker_heartbeats" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "started_at" DATETIME NOT NULL,
    "last_seen_at" DATETIME NOT NULL,
    "interval_ms" INTEGER NOT NULL DEFAULT 5000,
    "stopped_at" DATETIME
);
INSERT INTO "new_worker_heartbeats" ("id", "last_seen_at", "started_at") SELECT "id", "last_seen_at", "started_at" FROM "worker_heartbeats";
DROP TABLE "worker_heartbeats";
ALTER TABLE "new_worker_heartbeats" RENAME TO "worker_heartbeats";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

