// Bytes a cache keeps for long, in memory of their own. Node hands out small buffers (under 4 KiB:
// Buffer.from, Buffer.concat, a base64 decode) as slices of a shared 8 KiB pool, and a slice kept
// alive keeps its whole pool alive: a cache of many small slices, each counted at its own length,
// held about 8 KiB per entry (measured: a slot history per new file, a few hundred bytes each).

/** `bytes` as they are if nothing else shares their memory, else a copy that owns exactly its own. */
export function owned(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** The pieces one after another in one buffer that owns exactly its own memory (never a pool's). */
export function ownedConcat(pieces: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafeSlow(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
