-- AlterTable
ALTER TABLE "catalog_versions" ADD COLUMN     "files_checksum" CHAR(64);
