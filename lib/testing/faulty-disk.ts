// For the fault suite: the real file system behind a LocalDiskStore, failing on demand the way a
// full or read-only disk does, so domain code meets the faults through the BlobStore interface and
// the store's own failure handling is what gets tested.
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { DiskIo } from '../storage/local-disk';

export type DiskCall = 'write' | 'open' | 'rename' | 'link' | 'unlink' | 'rm' | 'mkdir' | 'truncate' | 'chmod';

const errno = (code: string, syscall: string, target?: string) =>
  Object.assign(
    new Error(
      `${code}: ${code === 'ENOSPC' ? 'no space left on device' : 'read-only file system'}, ${syscall}${target ? ` '${target}'` : ''}`,
    ),
    {
      code,
      errno: code === 'ENOSPC' ? -28 : -30,
      syscall,
      path: target,
    },
  );

export class FaultyDisk {
  /** bytes the disk still takes; undefined: no limit */
  private spaceLeft: number | undefined;
  private readonly failing = new Map<DiskCall, string>();
  /** bytes written through this disk, for tests that fail "mid-write" */
  written = 0;

  /** ENOSPC once `bytes` more bytes are written: the write that crosses the line is cut short, the next one fails. */
  full(bytes = 0) {
    this.spaceLeft = bytes;
    return this;
  }

  /** EROFS from every call that changes the disk (files already open included), as after a remount read-only. */
  readOnly() {
    for (const call of ['write', 'open', 'rename', 'link', 'unlink', 'rm', 'mkdir', 'truncate', 'chmod'] as const)
      this.failing.set(call, 'EROFS');
    return this;
  }

  /** Only these calls fail, with `code`. */
  fail(calls: DiskCall[], code = 'EROFS') {
    for (const call of calls) this.failing.set(call, code);
    return this;
  }

  heal() {
    this.spaceLeft = undefined;
    this.failing.clear();
    return this;
  }

  private check(call: DiskCall, target?: string) {
    const code = this.failing.get(call);
    if (code) throw errno(code, call, target);
  }

  /** How much of a write of `n` bytes the disk takes. */
  private room(n: number): number {
    this.check('write');
    if (this.spaceLeft === undefined) return n;
    if (this.spaceLeft === 0 && n > 0) throw errno('ENOSPC', 'write');
    const take = Math.min(n, this.spaceLeft);
    this.spaceLeft -= take;
    return take;
  }

  private handle(fh: FileHandle): FileHandle {
    const disk = this;
    const wrapped = {
      async writev(buffers: Uint8Array[], position?: number) {
        const all = Buffer.concat(buffers);
        const take = disk.room(all.length);
        const { bytesWritten } = await fh.write(all, 0, take, position);
        disk.written += bytesWritten;
        return { bytesWritten, buffers };
      },
      async write(buffer: Uint8Array, offset = 0, length = buffer.length - offset, position?: number) {
        const take = disk.room(length);
        const r = await fh.write(buffer, offset, take, position);
        disk.written += r.bytesWritten;
        return r;
      },
      async writeFile(data: string | Uint8Array) {
        disk.room(Buffer.byteLength(data));
        return fh.writeFile(data);
      },
      async truncate(len?: number) {
        disk.check('truncate');
        return fh.truncate(len);
      },
      async chmod(mode: number) {
        disk.check('chmod');
        return fh.chmod(mode);
      },
    };
    return new Proxy(fh, {
      get(target, prop) {
        if (prop in wrapped) return wrapped[prop as keyof typeof wrapped];
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }

  readonly io: DiskIo = {
    ...fsp,
    open: (async (file: string, flags?: string, mode?: number) => {
      if (flags && flags !== 'r') this.check('open', file);
      return this.handle(await fsp.open(file, flags, mode));
    }) as DiskIo['open'],
    chmod: async (file, mode) => {
      if (await present(String(file))) this.check('chmod', String(file));
      return fsp.chmod(file, mode);
    },
    rename: async (from, to) => {
      this.check('rename', String(to));
      return fsp.rename(from, to);
    },
    link: async (from, to) => {
      this.check('link', String(to));
      return fsp.link(from, to);
    },
    // Removing what is not there fails with ENOENT before the disk is asked, read-only or not.
    unlink: async (file) => {
      if (await present(String(file))) this.check('unlink', String(file));
      return fsp.unlink(file);
    },
    rm: async (file, opts) => {
      if (await present(String(file))) this.check('rm', String(file));
      return fsp.rm(file, opts);
    },
    mkdir: (async (dir: string, opts?: { recursive?: boolean }) => {
      // An existing directory is no change: mkdir -p on a read-only disk succeeds for it.
      if (!(await present(dir))) this.check('mkdir', dir);
      return fsp.mkdir(dir, opts);
    }) as DiskIo['mkdir'],
  };
}

const present = (p: string) =>
  fsp.stat(p).then(
    () => true,
    () => false,
  );
