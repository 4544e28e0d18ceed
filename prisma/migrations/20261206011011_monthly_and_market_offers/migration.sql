-- AlterEnum
ALTER TYPE "PricingModel" ADD VALUE 'MONTHLY';

-- AlterTable
ALTER TABLE "offers" ADD COLUMN     "market" JSONB;
