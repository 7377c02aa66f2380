// A SHA-256 whose running state can be saved and loaded again (hash-wasm), so that an upload held
// in a shared store can be continued by another process without reading its bytes back.
// node:crypto cannot export its state; hash-wasm is ~0.12–0.16× its speed here (docs/decisions/0017-s3-held-uploads.md).
import { createSHA256, type IHasher } from 'hash-wasm';

export interface ResumableSha256 {
  update(bytes: Uint8Array): void;
  /** The state after every byte so far, base64 (116 bytes decoded). */
  save(): string;
  /** Lowercase hex digest; ends the hash. */
  digest(): string;
}

export async function resumableSha256(saved?: string): Promise<ResumableSha256> {
  const h: IHasher = await createSHA256();
  h.init();
  if (saved) h.load(Buffer.from(saved, 'base64'));
  return {
    update: (bytes) => void h.update(bytes),
    save: () => Buffer.from(h.save()).toString('base64'),
    digest: () => h.digest('hex'),
  };
}
