// Choosing the store from the environment, and the one clear error for a bad S3 configuration.
import { afterEach, expect, it, vi } from 'vitest';
import { config, resetConfig } from '../config';
import { storeFor } from './index';
import { LocalDiskStore } from './local-disk';
import { S3Store } from './s3-store';

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});
const withEnv = (env: Record<string, string>) => {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  resetConfig();
  return config();
};

it('keeps files on local disk unless STORAGE=s3', () => {
  expect(storeFor(withEnv({}))).toBeInstanceOf(LocalDiskStore);
  const c = withEnv({ STORAGE: 's3', S3_BUCKET: 'silo-files', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' });
  expect(c.S3_FORCE_PATH_STYLE).toBe(true);
  expect(storeFor(c)).toBeInstanceOf(S3Store);
});

it('names the variable that is wrong', () => {
  expect(() => withEnv({ STORAGE: 's3' })).toThrow(/S3_BUCKET: required when STORAGE=s3/);
  expect(() => withEnv({ STORAGE: 'gcs' })).toThrow(/STORAGE:/);
  expect(() => withEnv({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/S3_SECRET_ACCESS_KEY: set both/);
  expect(() => withEnv({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT:/);
  expect(() => withEnv({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE:/);
  expect(() => withEnv({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_OBJECT_LOCK: 'on' })).toThrow(/S3_OBJECT_LOCK:/);
  vi.unstubAllEnvs();
  expect(() => withEnv({ S3_OBJECT_LOCK: 'compliance' })).toThrow(/S3_OBJECT_LOCK: only with STORAGE=s3/);
});

it('gives the S3 store a lock only with S3_OBJECT_LOCK', () => {
  const s3 = { STORAGE: 's3', S3_BUCKET: 'silo-files', S3_ENDPOINT: 'http://127.0.0.1:9000' };
  expect(storeFor(withEnv(s3)).lock).toBeUndefined();
  for (const mode of ['governance', 'compliance']) expect(storeFor(withEnv({ ...s3, S3_OBJECT_LOCK: mode })).lock).toBeTypeOf('function');
  vi.unstubAllEnvs();
  expect(storeFor(withEnv({})).lock).toBeUndefined(); // a local disk keeps its files read-only instead
});
