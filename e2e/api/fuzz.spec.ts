// Bad input of any shape gets the contract's error body, never a 500, and never changes stored data.
import fc from 'fast-check';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile } from './helpers';
import { hostileString } from './hostile-support';

const fieldValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 5 }), hostileString), fc.oneof(fc.string({ maxLength: 5 }), hostileString, fc.integer()), {
    maxKeys: 3,
  }),
);
const fileBody = fc.record(
  {
    name: fieldValue,
    category: fc.oneof(fc.constantFrom('format', 'attachment', 'other'), fieldValue),
    data: fc.oneof(fc.base64String({ maxLength: 40 }), fieldValue),
    mime: fc.oneof(
      fc.constantFrom('application/pdf', 'text/plain', 'nonsense', 'text/plain; x=\u0100', 'text/plain; charset="\u00e9"'),
      fieldValue,
    ),
    sha256: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fieldValue),
    size: fc.oneof(fc.nat(), fieldValue),
    key: fieldValue,
    desc: fieldValue,
    embeddable: fieldValue,
    private: fieldValue,
    meta: fieldValue,
  },
  { requiredKeys: [] },
);

test.describe('bad input of any shape', () => {
  test('random file requests answer 2xx or a contract error, and the stored file is untouched', async ({ request, newOwner }) => {
    test.setTimeout(180_000);
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const keep = await inlineFile(request, liveKey, entry.id, { name: 'keep.txt', data: b64('keep me') });
    await fc.assert(
      fc.asyncProperty(fileBody, async (body) => {
        const res = await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: body });
        expect([201, 400, 413, 415, 422]).toContain(res.status());
        if (res.status() >= 400) {
          const err = await res.json();
          expect(err.code).toBe(res.status());
          expect(typeof err.key).toBe('string');
          expect(typeof err.message).toBe('string');
          return;
        }
        // Whatever was accepted can be fetched: no stored value may make a header unsendable.
        const f = await res.json();
        const fetched = await request.get(f.stored ? f.url : `/silo/v1/entries/${entry.id}/files/${f.id}`, { headers: bearer(liveKey) });
        expect(fetched.status(), JSON.stringify(body)).toBe(f.stored ? 200 : 409);
      }),
      { numRuns: 150 },
    );
    const again = await request.get(`/silo/v1/entries/${entry.id}/files/${keep.id}`, { headers: bearer(liveKey) });
    expect(await again.text()).toBe('keep me');
  });
});
