// Issue 20, item 4: the answer to PUT {url} from someone who holds only the url tells no more than
// GET {url} does (the bytes' name, type, length and sha256, and the url itself): no `previous`
// (earlier, possibly private versions), no `created_by`, desc, meta or entry. The owner's
// credentials still get the full record. On the old code both stranger answers carried `previous`.
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile, sha256 } from './helpers';

const URL_FIELDS = ['hash', 'id', 'mime', 'name', 'size', 'stored', 'url'];

test.describe('what PUT {url} answers', () => {
  test("a stranger re-sending a public file's bytes learns nothing of its history", async ({ request, newOwner, playwright }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey, { name: 'history' });
    const secret = await inlineFile(request, liveKey, entry.id, {
      name: 'invoice.pdf',
      data: b64('the private draft'),
      private: true,
      desc: 'draft with the wrong bank account',
      meta: { note: 'internal' },
    });
    const bytes = Buffer.from('the public version');
    const current = await inlineFile(request, liveKey, entry.id, { name: 'invoice.pdf', data: b64(bytes), desc: 'public desc' });
    expect(current.previous.map((p: { id: string }) => p.id)).toEqual([secret.id]);

    const anon = await playwright.request.newContext();
    const get = await anon.get(current.url);
    expect(get.status()).toBe(200);
    const put = await anon.put(current.url, { data: bytes, headers: { 'Content-Type': 'application/pdf' } });
    expect(put.status(), await put.text()).toBe(200);
    const body = await put.json();
    expect(Object.keys(body).sort()).toEqual(URL_FIELDS);
    expect(body).toEqual({
      id: current.id,
      name: 'invoice.pdf',
      mime: current.mime,
      size: bytes.length,
      hash: sha256(bytes),
      url: current.url,
      stored: true,
    });
    // each field is one GET already gives
    expect(get.headers().etag).toBe(`"${body.hash}"`);
    expect(Number(get.headers()['content-length'])).toBe(body.size);
    expect(get.headers()['content-type']).toBe(body.mime);
    expect(get.headers()['content-disposition']).toContain(body.name);
    for (const leak of [secret.id, secret.hash, 'draft with', 'public desc', 'internal', entry.id, 'owner_key'])
      expect(await put.text()).not.toContain(leak);

    // credentials that reach the workspace get the whole record, history included
    const owned = await request.put(current.url, { data: bytes, headers: bearer(liveKey) });
    expect(owned.status()).toBe(200);
    expect((await owned.json()).previous.map((p: { id: string }) => p.id)).toEqual([secret.id]);
    // another workspace's key is no better than none
    const other = await newOwnerKey(newOwner);
    const foreign = await anon.put(current.url, { data: bytes, headers: bearer(other) });
    expect(Object.keys(await foreign.json()).sort()).toEqual(URL_FIELDS);
    // neither is a key that does not exist: the bytes were compared, the answer is the url's
    const bogus = await anon.put(current.url, { data: bytes, headers: bearer('silo_sk_nonsense') });
    expect(bogus.status()).toBe(200);
    expect(Object.keys(await bogus.json()).sort()).toEqual(URL_FIELDS);
    await anon.dispose();
  });

  test("whoever uploads to a placeholder's url gets the url's view, not the replaced versions", async ({
    request,
    newOwner,
    playwright,
  }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const old = await inlineFile(request, liveKey, entry.id, { name: 'scan.png', data: b64('old scan'), private: true, desc: 'private' });
    const bytes = Buffer.from('the new scan');
    const placeholder = await inlineFile(request, liveKey, entry.id, {
      name: 'scan.png',
      mime: 'image/png',
      sha256: sha256(bytes),
      size: bytes.length,
      desc: 'uploaded by the scanner',
    });
    expect(placeholder.stored).toBe(false);

    const anon = await playwright.request.newContext();
    const put = await anon.put(placeholder.url, { data: bytes, headers: { 'Content-Type': 'image/png' } });
    expect(put.status(), await put.text()).toBe(200);
    const body = await put.json();
    expect(Object.keys(body).sort()).toEqual(URL_FIELDS);
    expect(body).toMatchObject({ id: placeholder.id, stored: true, hash: sha256(bytes), size: bytes.length, mime: 'image/png' });
    for (const leak of [old.id, old.hash, 'private', 'scanner']) expect(await put.text()).not.toContain(leak);
    // the owner sees the replacement with its history
    const listed = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(listed.list[0].previous.map((p: { id: string }) => p.id)).toEqual([old.id]);

    // the uploader with the owner's credentials (as the console, by session) gets the full record
    const second = await inlineFile(request, liveKey, entry.id, { name: 'scan.png', mime: 'image/png', sha256: sha256('third'), size: 5 });
    const owned = await request.put(second.url, {
      data: Buffer.from('third'),
      headers: { ...bearer(liveKey), 'Content-Type': 'image/png' },
    });
    expect(owned.status()).toBe(200);
    expect((await owned.json()).previous.map((p: { id: string }) => p.id)).toEqual([placeholder.id, old.id]);
    await anon.dispose();
  });
});

async function newOwnerKey(newOwner: (name?: string) => Promise<{ liveKey: string }>) {
  return (await newOwner('someone else')).liveKey;
}
