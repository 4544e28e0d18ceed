-- CreateEnum
CREATE TYPE "SourceKind" AS ENUM ('PROVIDER_API', 'PROVIDER_PAGE', 'MIRROR', 'ANNOUNCEMENT');

-- CreateEnum
CREATE TYPE "Availability" AS ENUM ('CONFIRMED', 'UNCONFIRMED');

-- AlterTable (hand-edited: offers stored before this migration were never checked against
-- availability data and their source kind was not recorded, and they say so)
ALTER TABLE "offers" ADD COLUMN     "availability" "Availability" NOT NULL DEFAULT 'UNCONFIRMED',
ADD COLUMN     "availability_note" TEXT,
ADD COLUMN     "price_valid_from" DATE,
ADD COLUMN     "price_valid_until" DATE,
ADD COLUMN     "source_kind" "SourceKind";
UPDATE "offers" SET "availability_note" = 'imported before availability was checked at import';

-- CreateTable
CREATE TABLE "availability" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "instance_type" TEXT NOT NULL,
    "regions" TEXT[],
    "lists_every_region" BOOLEAN NOT NULL,
    "pricing_models" "PricingModel"[],
    "source" TEXT NOT NULL,
    "observed_at" DATE NOT NULL,
    "note" TEXT,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "availability_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "availability_valid_from_valid_to_idx" ON "availability"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "availability_key_idx" ON "availability"("key");
