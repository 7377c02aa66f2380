-- AlterTable
ALTER TABLE "upload_leases" ADD COLUMN     "instance" TEXT NOT NULL DEFAULT '';
