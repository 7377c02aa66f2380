// A table of records with the one pending / error / empty treatment every console list shares.
import type { ReactNode } from 'react';
import { formatDate } from '@/lib/console/format';
import { EmptyState } from './EmptyState';
import { ErrorNote } from './ErrorNote';
import { Skeleton } from './Skeleton';

export interface Column<T> {
  head?: ReactNode;
  cell(row: T, index: number): ReactNode;
  /** classes of the body cells, e.g. "muted" or "mono" */
  className?: string;
  /** hidden on narrow screens */
  wide?: boolean;
  /** the row's buttons, aligned right */
  actions?: boolean;
}

interface Props<T> {
  // the rows alone say what T is; a shared column (createdColumn) fits any row it can read
  columns: Column<NoInfer<T>>[];
  /** the rows, pending and error of a query whose data are the rows; or each of them given apart */
  query?: { data: T[] | undefined; isPending: boolean; error: unknown };
  rows?: T[];
  rowKey(row: T): string;
  pending?: boolean;
  error?: unknown;
  /** what shows instead of an empty table; without it an empty table shows */
  empty?: { title: string; body?: ReactNode };
  label?: string;
  rowTestId?: string;
  skeletonRows?: number;
}

/** The "Created" column most tables end with (hidden on narrow screens). */
export const createdColumn: Column<{ created_at: string }> = {
  head: 'Created',
  wide: true,
  className: 'muted',
  cell: (row) => formatDate(row.created_at),
};

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

export function DataTable<T>({ columns, query, rows, rowKey, pending, error, empty, label, rowTestId, skeletonRows }: Props<T>) {
  if (pending ?? query?.isPending) return <Skeleton rows={skeletonRows} />;
  if (error ?? query?.error) return <ErrorNote error={error ?? query?.error} />;
  const list = rows ?? query?.data ?? [];
  if (list.length === 0 && empty) return <EmptyState title={empty.title}>{empty.body}</EmptyState>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are a fixed list; position is their identity
              <th key={i} className={classes(c.wide && 'hide-sm')}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.map((row, r) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are a fixed list; position is their identity
                <td key={i} className={classes(c.className, c.wide && 'hide-sm', c.actions && 'cell-actions')}>
                  {c.cell(row, r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
