-- CreateTable
CREATE TABLE "catalog_source_syncs" (
    "source" TEXT NOT NULL,
    "provider" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_success_at" TIMESTAMPTZ(3),
    "offers" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "catalog_source_syncs_pkey" PRIMARY KEY ("source")
);
