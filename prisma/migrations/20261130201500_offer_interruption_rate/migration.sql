-- AlterTable
ALTER TABLE "offers" ADD COLUMN     "interruption_rate" TEXT;
