// Drops files on a dropzone the way a browser does: a DataTransfer with File objects made in the
// page, dispatched as dragenter / dragover / drop. Large files are made from a pattern in the page
// (never shipped over the wire); `patternBytes` makes the same bytes here to check what was stored.
import type { Locator, Page } from '@playwright/test';

export type DropFile = { name: string; type: string } & ({ text: string } | { size: number; seed: number });

/** The bytes of a pattern file: byte i is (i * 31 + (i >>> 11) + seed) & 255. */
export function patternBytes(size: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >>> 11) + seed) & 255;
  return b;
}

export async function dropFiles(page: Page, zone: Locator, files: DropFile[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      let bytes: BlobPart;
      if ('text' in f) bytes = f.text;
      else {
        const b = new Uint8Array(f.size);
        for (let i = 0; i < f.size; i++) b[i] = (i * 31 + (i >>> 11) + f.seed) & 255;
        bytes = b;
      }
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
  await dataTransfer.dispose();
}
