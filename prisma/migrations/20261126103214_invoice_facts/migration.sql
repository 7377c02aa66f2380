-- AlterTable
ALTER TABLE "files" ADD COLUMN     "fact_buyer_vat" TEXT,
ADD COLUMN     "fact_currency" TEXT,
ADD COLUMN     "fact_issue_date" DATE,
ADD COLUMN     "fact_number" TEXT,
ADD COLUMN     "fact_seller_vat" TEXT,
ADD COLUMN     "facts" JSONB;

-- CreateIndex
CREATE INDEX "files_fact_seller_vat_idx" ON "files"("fact_seller_vat");

-- CreateIndex
CREATE INDEX "files_fact_buyer_vat_idx" ON "files"("fact_buyer_vat");

-- CreateIndex
CREATE INDEX "files_fact_number_idx" ON "files"("fact_number");

-- CreateIndex
CREATE INDEX "files_fact_issue_date_idx" ON "files"("fact_issue_date");

-- CreateIndex
CREATE INDEX "files_fact_currency_idx" ON "files"("fact_currency");
