-- CreateEnum
CREATE TYPE "PriceKind" AS ENUM ('LIST', 'ESTIMATE');

-- CreateEnum
CREATE TYPE "ReferenceMetric" AS ENUM ('PRICE_PER_GPU_HOUR', 'DISCOUNT_PERCENT', 'EGRESS_PER_GB', 'NONE');

-- AlterTable (hand-edited: stored rows keep their kind, derived = true becomes ESTIMATE)
ALTER TABLE "offers" ADD COLUMN     "conversion" TEXT,
ADD COLUMN     "price_kind" "PriceKind" NOT NULL DEFAULT 'LIST',
ALTER COLUMN "price_per_hour" SET DATA TYPE DECIMAL(25,15),
ALTER COLUMN "upfront" SET DATA TYPE DECIMAL(22,6);
UPDATE "offers" SET "price_kind" = 'ESTIMATE' WHERE "derived";
ALTER TABLE "offers" DROP COLUMN "derived";

-- AlterTable
ALTER TABLE "catalog_versions" ADD COLUMN     "provider_observations" JSONB;

-- CreateTable
CREATE TABLE "reference_figures" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "claim" TEXT NOT NULL,
    "metric" "ReferenceMetric" NOT NULL,
    "value" DECIMAL(20,10) NOT NULL,
    "value_high" DECIMAL(20,10),
    "currency" CHAR(3),
    "provider" TEXT,
    "gpus" TEXT[],
    "pricing_model" "PricingModel",
    "source" TEXT NOT NULL,
    "published_on" DATE NOT NULL,
    "note" TEXT,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "reference_figures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reference_figures_valid_from_valid_to_idx" ON "reference_figures"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "reference_figures_key_idx" ON "reference_figures"("key");
