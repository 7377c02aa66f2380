// A map within a byte budget: each value is set with its size, and once the sizes pass the budget
// the least recently used values go first (a Map keeps insertion order; a get moves its entry to
// the end). A value larger than the whole budget is not kept. An optional count caps the values
// too (the read cache keeps many small ones).
export class SizedLru<V> {
  private readonly map = new Map<string, { value: V; size: number }>();
  private total = 0;
  constructor(
    readonly maxBytes: number,
    readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  /** The value of `key`, now the most recently used. */
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** The value of `key`, its recency left as it is. */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Sets `key` (the most recently used), then drops the least recently used past the budget. */
  set(key: string, value: V, size: number) {
    this.delete(key);
    if (size > this.maxBytes) return;
    this.map.set(key, { value, size });
    this.total += size;
    for (const [k, old] of this.map) {
      if (this.total <= this.maxBytes && this.map.size <= this.maxEntries) break;
      this.map.delete(k);
      this.total -= old.size;
    }
  }

  delete(key: string) {
    const e = this.map.get(key);
    if (!e) return;
    this.map.delete(key);
    this.total -= e.size;
  }
}
