-- CreateTable
CREATE TABLE "auditor_keys" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "note" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "auditor_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "auditor_keys_hash_key" ON "auditor_keys"("hash");

-- CreateIndex
CREATE INDEX "auditor_keys_owner_id_sandbox_created_at_idx" ON "auditor_keys"("owner_id", "sandbox", "created_at");

-- AddForeignKey
ALTER TABLE "auditor_keys" ADD CONSTRAINT "auditor_keys_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;
