// Keyset pages of the API (docs/api.md, Entries): the query string for one page, and every page of a
// small admin list.
import { api } from '../api';
import type { Page } from '../../schemas/records';

export function pageQuery(limit: number, cursor?: string, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  return q.toString();
}

/** Admin lists are small; read every page so selects and lookups are complete. */
export async function readAll<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<Page<T>>(`${path}?${pageQuery(100, cursor)}`);
    out.push(...page.list);
    cursor = page.next_cursor;
  } while (cursor && out.length < 5000);
  return out;
}

/** For useInfiniteQuery: the next page's cursor, or none at the end. */
export const nextCursor = <T>(last: Page<T>) => last.next_cursor;
