// Every string field of every payload refuses what PostgreSQL cannot store unchanged: NUL (text
// and jsonb reject it) and unpaired surrogates (text would keep U+FFFD, jsonb rejects them).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { assertStorableJson } from '../http/request';
import { AppInput, AuthorizeInput, OwnerInput } from './access';
import { DEFAULT_META_LIMITS } from './common';
import { entryInput, entryListQuery, entryUpdate } from './entries';
import { fileInput, fileUpdate } from './files';
import { SetupInput, UserInput, UserUpdate } from './users';

const HOSTILE = ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', 'a\ud800\ud800'];

/** A valid payload and the string fields in it. */
const CASES: [string, z.ZodType, Record<string, unknown>, string[]][] = [
  ['entry', entryInput(DEFAULT_META_LIMITS), { key: 'k', folder: 'f', name: 'n' }, ['key', 'folder', 'name']],
  ['entry patch', entryUpdate(DEFAULT_META_LIMITS), { key: 'k', folder: 'f', name: 'n' }, ['key', 'folder', 'name']],
  [
    'file',
    fileInput(DEFAULT_META_LIMITS),
    { name: 'n', key: 'k', desc: 'd', mime: 'text/plain', sha256: 'a'.repeat(64), size: 1 },
    ['name', 'key', 'desc', 'mime', 'sha256'],
  ],
  ['file patch', fileUpdate(DEFAULT_META_LIMITS), { desc: 'd' }, ['desc']],
  ['owner', OwnerInput, { name: 'n' }, ['name']],
  ['app', AppInput, { name: 'n' }, ['name']],
  ['user', UserInput, { email: 'a@b.c', name: 'n', password: 'long enough' }, ['email', 'name']],
  ['user patch', UserUpdate, { name: 'n' }, ['name']],
  ['setup', SetupInput, { token: 't', email: 'a@b.c', password: 'long enough' }, ['email', 'name']],
  [
    'authorize',
    AuthorizeInput,
    { client_id: 'app_x', client_secret: 's', owner_id: '00000000-0000-0000-0000-000000000000' },
    ['client_id', 'owner_id'],
  ],
  ['entry list query', entryListQuery(100), { folder: 'f', key: 'k', cursor: 'c' }, ['folder', 'key', 'cursor']],
];

describe('string fields refuse NUL and unpaired surrogates', () => {
  it.each(CASES)('%s', (_, schema, valid, fields) => {
    expect(schema.safeParse(valid).success).toBe(true);
    for (const field of fields)
      for (const bad of HOSTILE)
        expect(schema.safeParse({ ...valid, [field]: bad }).success, `${field}=${JSON.stringify(bad)}`).toBe(false);
  });
  it('meta keys and values', () => {
    const schemas = [entryInput(DEFAULT_META_LIMITS), entryUpdate(DEFAULT_META_LIMITS), fileUpdate(DEFAULT_META_LIMITS)];
    for (const schema of schemas)
      for (const bad of HOSTILE) {
        expect(schema.safeParse({ meta: { [bad]: 'v' } }).success).toBe(false);
        expect(schema.safeParse({ meta: { k: bad } }).success).toBe(false);
      }
    // Values are free text: line breaks and tabs stay allowed; a surrogate pair is one character.
    expect(entryInput(DEFAULT_META_LIMITS).safeParse({ meta: { k: 'line 1\nline 2\t😀' } }).success).toBe(true);
  });
  it('any body: every string and key, at any depth, without recursion', () => {
    expect(() => assertStorableJson({ a: [{ b: 'ok 😀' }] })).not.toThrow();
    for (const bad of HOSTILE) {
      expect(() => assertStorableJson({ a: [{ b: bad }] })).toThrow(/NUL/);
      expect(() => assertStorableJson({ a: { [bad]: 1 } })).toThrow(/NUL/);
    }
    expect(() => assertStorableJson(JSON.parse('{"meta":{"__proto__":"x"}}'))).toThrow(/__proto__/);
    const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`);
    expect(() => assertStorableJson(deep)).toThrow(/NUL/);
  });
});
