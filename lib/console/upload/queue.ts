// The upload queue of one entry: each dropped file goes ready → hashing → creating → uploading →
// stored (or failed / cancelled, from where it can be retried). A retry resumes: the hash and the
// placeholder are kept, and HEAD {url} tells how many bytes the server already holds. A server that
// answers busy or unavailable (503, or 429) is tried again by itself after the Retry-After it asked
// for, AUTO_RETRIES times in a row, before the file is left failed for the user to retry.
import { ApiFailure } from '../api';
import { must } from '../../must';
import type { FileRecord } from '../../schemas/records';
import { suggestCategory } from './category';
import { SpeedMeter, secondsLeft } from './speed';
import { browserTransport, type PlaceholderRequest, type UploadTransport } from './transport';

export type UploadStatus = 'ready' | 'hashing' | 'creating' | 'uploading' | 'stored' | 'failed' | 'cancelled';

export interface UploadOptions {
  category: 'format' | 'attachment';
  key: string;
  /** the stored name, when it is not the dropped file's: a new version of a file without a key keeps its name */
  name?: string;
  desc: string;
  private: boolean;
  embeddable: boolean;
}

export interface UploadItem {
  id: string;
  file: File;
  options: UploadOptions;
  status: UploadStatus;
  hashed: number;
  sent: number;
  /** bytes per second, and seconds left, while uploading */
  speed: number;
  eta: number;
  sha256?: string;
  record?: FileRecord;
  error?: string;
}

const MAX_PARALLEL = 3;
/** Busy answers (503, 429) in a row a file is tried again after by itself. */
export const AUTO_RETRIES = 3;
/** Seconds waited when a busy answer says nothing of when to come back; at most MAX_WAIT_S. */
const DEFAULT_WAIT_S = 5;
const MAX_WAIT_S = 60;
const BUSY: UploadStatus[] = ['hashing', 'creating', 'uploading'];
let counter = 0;

export const mimeOf = (f: File) => f.type || 'application/octet-stream';

export class UploadQueue {
  private items: UploadItem[] = [];
  private listeners = new Set<() => void>();
  private controllers = new Map<string, AbortController>();
  private waiting: string[] = [];
  /** the busy answers each file met in a row, and the timer that tries it again */
  private busyTries = new Map<string, number>();
  private retryTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private entryId: string,
    private onStored: (record: FileRecord) => void,
    private net: UploadTransport = browserTransport,
  ) {}

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };
  snapshot = () => this.items;

  /** Adds files as ready, each with a suggested category unless `preset` says otherwise; returns their ids. */
  add(files: File[], preset: Partial<UploadOptions> = {}): string[] {
    const fresh = files.map<UploadItem>((file) => ({
      id: `u${++counter}`,
      file,
      options: { category: suggestCategory(file), key: '', desc: '', private: false, embeddable: false, ...preset },
      status: 'ready',
      hashed: 0,
      sent: 0,
      speed: 0,
      eta: Infinity,
    }));
    this.items = [...this.items, ...fresh];
    this.emit();
    return fresh.map((i) => i.id);
  }

  setOptions(id: string, options: Partial<UploadOptions>) {
    const item = this.get(id);
    if (item?.status === 'ready') this.patch(id, { options: { ...item.options, ...options } });
  }

  /** Queues every ready file. */
  startAll() {
    for (const i of this.items) if (i.status === 'ready') this.enqueue(i.id);
  }

  start(id: string) {
    const item = this.get(id);
    this.busyTries.delete(id);
    if (item && ['ready', 'failed', 'cancelled'].includes(item.status)) this.enqueue(id);
  }

  cancel(id: string) {
    this.stopRetryTimer(id);
    this.waiting = this.waiting.filter((w) => w !== id);
    this.controllers.get(id)?.abort();
    const item = this.get(id);
    if (item && !['stored'].includes(item.status)) this.patch(id, { status: 'cancelled', speed: 0, error: undefined });
  }

  remove(id: string) {
    this.cancel(id);
    this.items = this.items.filter((i) => i.id !== id);
    this.emit();
  }

  clearFinished() {
    this.items = this.items.filter((i) => i.status !== 'stored');
    this.emit();
  }

  private enqueue(id: string) {
    this.stopRetryTimer(id);
    this.patch(id, { status: 'ready', error: undefined });
    if (!this.waiting.includes(id)) this.waiting.push(id);
    this.pump();
  }

  private pump() {
    while (this.controllers.size < MAX_PARALLEL) {
      const id = this.waiting.shift();
      if (id === undefined) return;
      const ctrl = new AbortController();
      this.controllers.set(id, ctrl);
      this.run(id, ctrl.signal).finally(() => {
        this.controllers.delete(id);
        this.pump();
      });
    }
  }

  private async run(id: string, signal: AbortSignal) {
    try {
      let item = this.need(id);
      if (!item.sha256) {
        this.patch(id, { status: 'hashing' });
        const sha256 = await this.net.hash(item.file, (hashed) => this.patch(id, { hashed }), signal);
        this.patch(id, { sha256, hashed: item.file.size });
      }
      item = this.need(id);
      let offset = 0;
      if (!item.record) {
        this.patch(id, { status: 'creating' });
        this.patch(id, { record: await this.placeholder(item, 'POST') });
      } else {
        offset = await this.resumeOffset(item);
      }
      await this.upload(id, offset, signal);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      const wait = this.busyWait(id, err);
      if (wait === undefined) return this.patch(id, { status: 'failed', speed: 0, error: (err as Error).message });
      const tries = this.busyTries.get(id) ?? 0;
      this.patch(id, {
        status: 'failed',
        speed: 0,
        error: `The server is busy; trying again in ${wait} s (${tries} of ${AUTO_RETRIES})`,
      });
      this.retryTimers.set(
        id,
        setTimeout(() => {
          this.retryTimers.delete(id);
          if (this.get(id)?.status === 'failed') this.enqueue(id);
        }, wait * 1000),
      );
    }
  }

  /** Seconds to wait before trying again by itself after `err`, or undefined: the user decides. */
  private busyWait(id: string, err: unknown): number | undefined {
    if (!(err instanceof ApiFailure) || (err.status !== 503 && err.status !== 429)) return undefined;
    const tries = (this.busyTries.get(id) ?? 0) + 1;
    if (tries > AUTO_RETRIES) {
      this.busyTries.delete(id);
      return undefined;
    }
    this.busyTries.set(id, tries);
    return Math.min(Math.max(err.retryAfter ?? DEFAULT_WAIT_S, 1), MAX_WAIT_S);
  }

  private stopRetryTimer(id: string) {
    clearTimeout(this.retryTimers.get(id));
    this.retryTimers.delete(id);
  }

  /** POST creates the placeholder; PUT with its id asks again (same request) for a fresh url. */
  private placeholder(item: UploadItem, method: 'POST' | 'PUT'): Promise<FileRecord> {
    const o = item.options;
    const body: PlaceholderRequest = {
      name: o.name ?? item.file.name,
      mime: mimeOf(item.file),
      sha256: item.sha256,
      size: item.file.size,
      category: o.category,
      ...(o.key.trim() ? { key: o.key.trim() } : {}),
      desc: o.desc,
      private: o.private,
      embeddable: o.embeddable,
    };
    return this.net.placeholder(this.entryId, body, method === 'PUT' ? must(item.record, 'the placeholder').id : undefined);
  }

  private async resumeOffset(item: UploadItem): Promise<number> {
    try {
      const held = await this.net.offset(must(item.record, 'the placeholder').url);
      return held < item.file.size ? held : 0;
    } catch (err) {
      if (!(err instanceof ApiFailure && err.key === 'upload_url_expired')) throw err;
      const record = await this.placeholder(item, 'PUT');
      this.patch(item.id, { record });
      return this.net.offset(record.url);
    }
  }

  private async upload(id: string, offset: number, signal: AbortSignal) {
    const item = this.need(id);
    const meter = new SpeedMeter();
    meter.sample(offset);
    this.patch(id, { status: 'uploading', sent: offset, speed: 0, eta: Infinity });
    const record = await this.net.send({
      url: must(item.record, 'the placeholder').url,
      file: item.file,
      mime: mimeOf(item.file),
      offset,
      signal,
      onProgress: (sent) => {
        const speed = meter.sample(sent);
        this.patch(id, { sent, speed, eta: secondsLeft(item.file.size - sent, speed) });
      },
    });
    this.busyTries.delete(id);
    this.patch(id, { status: 'stored', record, sent: item.file.size, speed: 0, eta: 0 });
    this.onStored(record);
  }

  /** The item a running upload works on (removing an item aborts its upload first). */
  private need(id: string): UploadItem {
    return must(this.get(id), `upload ${id}`);
  }

  private get(id: string) {
    return this.items.find((i) => i.id === id);
  }

  private patch(id: string, p: Partial<UploadItem>) {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...p } : i));
    this.emit();
  }

  private emit() {
    for (const fn of this.listeners) fn();
  }
}

export const isBusy = (s: UploadStatus) => BUSY.includes(s);
