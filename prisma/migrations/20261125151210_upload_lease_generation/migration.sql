-- AlterTable
ALTER TABLE "upload_leases" ADD COLUMN     "generation" BIGSERIAL NOT NULL;
