// Loads Prisma's schema engine (WebAssembly) in plain Node: the package's entry imports the .wasm
// file as an ES module, which Node cannot; we instantiate it ourselves with the same glue.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

export async function loadSchemaEngine(schema: string, adapterFactory: unknown): Promise<SchemaEngine> {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const glue = await import(pathToFileURL(path.join(dir, 'schema_engine_bg.js')).href);
  const bytes = await readFile(path.join(dir, 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  const adapter = bindMigrationAwareSqlAdapterFactory(adapterFactory as never);
  return glue.SchemaEngine.new({ datamodels: [['schema.prisma', schema]] }, () => {}, adapter);
}
