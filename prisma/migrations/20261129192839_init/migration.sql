-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "PricingModel" AS ENUM ('ON_DEMAND', 'SPOT', 'RESERVED_1Y', 'RESERVED_3Y', 'SERVERLESS');

-- CreateEnum
CREATE TYPE "ProviderKind" AS ENUM ('HYPERSCALER', 'NEOCLOUD', 'MARKETPLACE', 'REGIONAL');

-- CreateTable
CREATE TABLE "catalog_versions" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "label" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "notes" TEXT,
    "checksum" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fx_rates" JSONB NOT NULL,
    "offer_count" INTEGER NOT NULL,
    "rows_written" INTEGER NOT NULL,

    CONSTRAINT "catalog_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_publications" (
    "id" SERIAL NOT NULL,
    "version_id" UUID NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_by" TEXT,

    CONSTRAINT "catalog_publications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "providers" (
    "id" BIGSERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ProviderKind" NOT NULL,
    "headquarters_country" CHAR(2) NOT NULL,
    "sla_percent" DECIMAL(6,3),
    "certifications" TEXT[],
    "egress_usd_per_gb" DECIMAL(10,4),
    "website" TEXT,
    "source" TEXT,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "regions" (
    "id" BIGSERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "provider_slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "city" TEXT,
    "country" CHAR(2) NOT NULL,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "regions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gpu_models" (
    "id" BIGSERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "memory_gb" DECIMAL(8,2) NOT NULL,
    "memory_bandwidth_gbps" DECIMAL(10,2) NOT NULL,
    "fp16_tflops" DECIMAL(10,2) NOT NULL,
    "int8_tops" DECIMAL(10,2) NOT NULL,
    "fp8_tflops" DECIMAL(10,2),
    "fp8_support" BOOLEAN NOT NULL,
    "source" TEXT,
    "content_hash" CHAR(32) NOT NULL,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "gpu_models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offers" (
    "id" BIGSERIAL NOT NULL,
    "key_hash" CHAR(32) NOT NULL,
    "content_hash" CHAR(32) NOT NULL,
    "provider_slug" TEXT NOT NULL,
    "region_code" TEXT NOT NULL,
    "gpu_slug" TEXT NOT NULL,
    "gpu_count" INTEGER NOT NULL,
    "instance_type" TEXT NOT NULL,
    "pricing_model" "PricingModel" NOT NULL,
    "price_per_hour" DECIMAL(18,6) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "upfront" DECIMAL(18,2),
    "term_months" INTEGER,
    "serverless_unit_price" DECIMAL(18,9),
    "serverless_unit" TEXT,
    "interruption_notice_seconds" INTEGER,
    "source_url" TEXT NOT NULL,
    "source_title" TEXT,
    "observed_at" DATE NOT NULL,
    "derived" BOOLEAN NOT NULL DEFAULT false,
    "derivation" TEXT,
    "valid_from" INTEGER NOT NULL,
    "valid_to" INTEGER,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "catalog_versions_seq_key" ON "catalog_versions"("seq");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_versions_label_key" ON "catalog_versions"("label");

-- CreateIndex
CREATE INDEX "catalog_publications_published_at_idx" ON "catalog_publications"("published_at");

-- CreateIndex
CREATE INDEX "providers_valid_from_valid_to_idx" ON "providers"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "providers_slug_idx" ON "providers"("slug");

-- CreateIndex
CREATE INDEX "regions_valid_from_valid_to_idx" ON "regions"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "regions_code_idx" ON "regions"("code");

-- CreateIndex
CREATE INDEX "gpu_models_valid_from_valid_to_idx" ON "gpu_models"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "gpu_models_slug_idx" ON "gpu_models"("slug");

-- CreateIndex
CREATE INDEX "offers_valid_from_valid_to_idx" ON "offers"("valid_from", "valid_to");

-- CreateIndex
CREATE INDEX "offers_key_hash_idx" ON "offers"("key_hash");

-- AddForeignKey
ALTER TABLE "catalog_publications" ADD CONSTRAINT "catalog_publications_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "catalog_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
