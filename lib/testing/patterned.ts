// Bytes two processes can both produce: byte i of the stream is a function of i alone.
const BLOCK = 64 * 1024;

export function* patterned(from: number, to: number): Generator<Buffer> {
  for (let at = from; at < to; ) {
    const block = Math.floor(at / BLOCK);
    const end = Math.min((block + 1) * BLOCK, to);
    const b = Buffer.alloc(BLOCK, block % 251);
    b.writeUInt32BE(block, 0);
    yield b.subarray(at - block * BLOCK, end - block * BLOCK);
    at = end;
  }
}
