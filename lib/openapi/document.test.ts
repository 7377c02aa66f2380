import { createWorkspaceStore } from '@scalar/workspace-store/client';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors';
import { ERROR_STATUS } from '../schemas/error-keys';
import { openApiDocument } from './document';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; description?: string }[];
}
type Doc = {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
};
const METHODS = ['get', 'head', 'put', 'post', 'patch', 'delete'];

describe('openApiDocument', () => {
  const doc = openApiDocument() as unknown as Doc;
  const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      at: `${m.toUpperCase()} ${p}`,
      op: item[m] as Operation,
      item: item as { parameters?: Operation['parameters'] },
    })),
  );
  it('is OpenAPI 3.1 with every endpoint of the contract', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/access/v1/enrollment/authorize',
      '/silo/v1/entries',
      '/silo/v1/entries/{entry_id}',
      '/silo/v1/entries/{entry_id}/files',
      '/silo/v1/entries/{entry_id}/files/{id}',
      '/silo/v1/entries/{entry_id}/files/{id}/restore',
      '/silo/v1/entries/{entry_id}/files/{id}/data',
      '/silo/v1/files/{id}',
      '/utils/v1/ping',
      '/admin/v1/owners',
      '/admin/v1/users',
      '/admin/v1/users/{id}',
      '/admin/v1/setup',
      '/admin/v1/me',
    ])
      expect(doc.paths[p], p).toBeTruthy();
  });
  it('takes its schemas from the validating zod schemas', () => {
    const input = doc.components.schemas.FileInput as { properties: Record<string, unknown> };
    expect(Object.keys(input.properties)).toEqual(
      expect.arrayContaining(['name', 'category', 'data', 'mime', 'sha256', 'size', 'key', 'desc', 'embeddable', 'private', 'meta']),
    );
    expect(doc.components.schemas.Error).toBeTruthy();
  });
  it('names every operation once (camelCase) and tags it with a described tag', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      JSON.stringify(ids),
    ).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const described = new Set(doc.tags.filter((t) => t.description).map((t) => t.name));
    for (const { at, op } of operations) expect(op.tags?.length && op.tags.every((t) => described.has(t)), at).toBeTruthy();
  });
  it('has a server, describes every parameter, and opens the public operations to anyone', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const { at, op, item } of operations)
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) expect(p.description, `${at} ${p.name}`).toBeTruthy();
    const open = operations.filter((o) => o.op.security?.length === 0).map((o) => o.at);
    expect(open.sort()).toEqual([
      'GET /utils/v1/audit-key',
      'GET /utils/v1/ping',
      'GET /utils/v1/ready',
      'POST /access/v1/enrollment/authorize',
      'POST /admin/v1/setup',
    ]);
  });
  it('lists every error key of lib/errors.ts in the error body, each with the status it comes with', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> } })
      .components.schemas;
    expect(schemas.Error.properties.key.enum).toEqual(Object.keys(ERROR_STATUS));
    expect(new ApiError('upload_in_progress', 'x').status).toBe(ERROR_STATUS.upload_in_progress);
  });

  it("declares Retry-After on an upload's 409 (upload_in_progress) and on 429", () => {
    const paths = (
      doc as unknown as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> }
    ).paths;
    expect(paths['/silo/v1/files/{id}'].put.responses['409'].headers).toHaveProperty('Retry-After');
    expect(paths['/access/v1/enrollment/authorize'].post.responses['429'].headers).toHaveProperty('Retry-After');
  });

  it('declares Silo-Event on the 2xx answers of the silo writes, and nowhere else', () => {
    const paths = (
      doc as unknown as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> }
    ).paths;
    expect(paths['/silo/v1/entries'].post.responses['201'].headers).toHaveProperty('Silo-Event');
    expect(paths['/silo/v1/files/{id}'].put.responses['409'].headers).not.toHaveProperty('Silo-Event');
    expect(paths['/silo/v1/entries'].get.responses['200'].headers ?? {}).not.toHaveProperty('Silo-Event');
    expect(paths['/access/v1/enrollment/authorize'].post.responses['200']?.headers ?? {}).not.toHaveProperty('Silo-Event');
  });

  it('shows no negative or unsafe number as an example', () => {
    const bad: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${at}/${i}`);
        return;
      }
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.type === 'integer' && typeof o.minimum === 'number' && o.minimum < 0) bad.push(`${at} minimum ${o.minimum}`);
      if (o.type === 'integer' && o.example === undefined && o.default === undefined) bad.push(`${at} has no example`);
      for (const [k, x] of Object.entries(o)) walk(x, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(bad).toEqual([]);
  });
  it("declares the 304 of a file's bytes and the query parameters of its url on each operation", () => {
    const url = doc.paths['/silo/v1/files/{id}'] as Record<string, Operation & { responses: Record<string, unknown> }>;
    const bytes = doc.paths['/silo/v1/entries/{entry_id}/files/{id}'] as Record<string, { responses: Record<string, unknown> }>;
    expect(Object.keys(bytes.get.responses)).toContain('304');
    expect(Object.keys(url.get.responses)).toContain('304');
    expect(Object.keys(url.head.responses)).toContain('304');
    // Scalar lists an operation's own parameters (a path item's query parameters do not show)
    const query = (op: Operation) => (op.parameters ?? []).map((p) => p.name).sort();
    expect(query(url.get)).toEqual(['download', 'expires', 'link', 'sig']);
    expect(query(url.head)).toEqual(['expires', 'link', 'sig']);
    expect(query(url.put)).toEqual(['sig']);
  });
  it('gives every schema a type or a $ref, so Scalar (the /docs page) finds no validation errors', async () => {
    const untyped: string[] = [];
    const walk = (v: unknown, at: string, isSchema: boolean): void => {
      if (!v || typeof v !== 'object') return;
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${at}/${i}`, isSchema);
        return;
      }
      const o = v as Record<string, unknown>;
      if (isSchema && o.type === undefined && o.$ref === undefined) untyped.push(at);
      for (const [k, x] of Object.entries(o)) {
        const childIsSchema =
          k === 'schema' ||
          (isSchema && ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not'].includes(k)) ||
          at.endsWith('/properties') ||
          at === '#/components/schemas';
        walk(x, `${at}/${k}`, childIsSchema && typeof x === 'object');
      }
    };
    walk(doc, '#', false);
    expect(untyped).toEqual([]);

    // Scalar's own check of the document (it logs what it rejects as "document validation errors")
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await createWorkspaceStore().addDocument({ name: 'silo', document: JSON.parse(JSON.stringify(doc)) });
      expect(warn.mock.calls.flat().map((x) => JSON.stringify(x).slice(0, 300))).toEqual([]);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });
});
