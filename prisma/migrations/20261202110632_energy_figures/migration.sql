-- CreateTable
CREATE TABLE "energy_figures" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "value" DECIMAL(12,6) NOT NULL,
    "year" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "energy_figures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "energy_figures_valid_from_valid_to_idx" ON "energy_figures"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "energy_figures_key_idx" ON "energy_figures"("key");
