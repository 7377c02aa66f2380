-- AlterTable
ALTER TABLE "files" ADD COLUMN     "created_by" JSONB,
ADD COLUMN     "link_nonce" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "restored_from" JSONB;
