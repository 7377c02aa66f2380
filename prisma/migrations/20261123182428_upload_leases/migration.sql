-- CreateTable
CREATE TABLE "upload_leases" (
    "file_id" UUID NOT NULL,
    "holder" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "upload_leases_pkey" PRIMARY KEY ("file_id")
);
