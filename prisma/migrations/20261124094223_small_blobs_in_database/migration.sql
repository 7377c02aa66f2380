-- AlterTable
ALTER TABLE "blobs" ADD COLUMN     "data" BYTEA;
