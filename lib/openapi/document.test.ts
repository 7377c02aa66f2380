import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';

describe('openApiDocument', () => {
  const doc = openApiDocument() as unknown as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
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
});
