-- AlterTable
ALTER TABLE "energy_figures" ADD COLUMN     "grid_source" TEXT;
