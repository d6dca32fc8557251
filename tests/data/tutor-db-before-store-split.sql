BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'study-tutor','m001_posts_and_answers','2026-12-01 15:37:14.663306+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'study-tutor','m002_events_and_gaps','2026-12-01 15:37:14.663793+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'study-tutor','m003_daily_schedules_and_ledger','2026-12-01 15:37:14.664388+00:00');
CREATE TABLE "answers" (
   "id" INTEGER PRIMARY KEY,
   "post_id" INTEGER NOT NULL REFERENCES "posts"("id"),
   "team" TEXT NOT NULL,
   "channel" TEXT,
   "user" TEXT NOT NULL,
   "question_id" TEXT,
   "section" TEXT,
   "topic" TEXT,
   "choice" TEXT NOT NULL,
   "correct" INTEGER NOT NULL,
   "answered_at" TEXT NOT NULL
);
INSERT INTO "answers" VALUES(1,1,'T1','D1','U1','q-automl','3.2','Training methods','B',1,'2026-12-01T09:01:00+00:00');
CREATE TABLE "events" (
   "event_id" TEXT PRIMARY KEY,
   "seen_at" TEXT
);
INSERT INTO "events" VALUES('Ev1','2026-12-01T09:00:00+00:00');
CREATE TABLE "gaps" (
   "id" INTEGER PRIMARY KEY,
   "question" TEXT,
   "asked_at" TEXT,
   "asker" TEXT,
   "best_guess" TEXT,
   "confidence" INTEGER
);
INSERT INTO "gaps" VALUES(1,'How do I shard a TPU pod?','2026-12-01T09:00:00+00:00','03298ce0fa2fb079','tpu',41);
CREATE TABLE "posts" (
   "id" INTEGER PRIMARY KEY,
   "team" TEXT NOT NULL,
   "channel" TEXT,
   "user" TEXT,
   "question_id" TEXT NOT NULL,
   "section" TEXT,
   "topic" TEXT,
   "kind" TEXT NOT NULL,
   "posted_at" TEXT NOT NULL,
   "closes_at" TEXT,
   "ts" TEXT
, "local_date" TEXT, "revealed_at" TEXT);
INSERT INTO "posts" VALUES(1,'T1','D1','U1','q-automl','3.2','Training methods','private','2026-12-01T09:00:00+00:00',NULL,NULL,NULL,NULL);
INSERT INTO "posts" VALUES(2,'T1','C1','','q-oom','3.2','Troubleshooting','daily','2026-12-01T09:00:00+00:00','2026-12-01T17:00:00+00:00','1796115600.000100','2026-12-01',NULL);
CREATE TABLE "schedules" (
   "team" TEXT NOT NULL,
   "channel" TEXT NOT NULL,
   "at" TEXT NOT NULL,
   "tz" TEXT NOT NULL,
   "days" TEXT NOT NULL,
   "window_hours" INTEGER,
   "recap" INTEGER NOT NULL,
   "created_by" TEXT,
   "created_at" TEXT NOT NULL,
   PRIMARY KEY ("team", "channel")
);
INSERT INTO "schedules" VALUES('T1','C1','09:00','Europe/Berlin','mon-fri',8,1,'U9','2026-12-01T09:00:00+00:00');
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE UNIQUE INDEX "idx_answers_post_id_user"
    ON "answers" ("post_id", "user");
CREATE INDEX "idx_answers_team_answered_at"
    ON "answers" ("team", "answered_at");
CREATE INDEX "idx_answers_team_user"
    ON "answers" ("team", "user");
CREATE UNIQUE INDEX idx_posts_daily_ledger on posts (team, channel, local_date) where kind = 'daily';
CREATE INDEX "idx_posts_kind_closes_at"
    ON "posts" ("kind", "closes_at");
COMMIT;
