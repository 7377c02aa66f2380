// An edit's changed fields, each before → after (the record's `data.before` and `data.after`).
import { eventChanges } from '@/lib/console/event-summary';
import type { EventRecord } from '@/lib/schemas/records';
import styles from './activity.module.css';

export function ActivityChanges({ event }: { event: EventRecord }) {
  const changes = eventChanges(event);
  if (!changes.length) return null;
  return (
    <ul className={styles.changes} aria-label="Changes">
      {changes.map((c) => (
        <li key={c.field}>
          <span className="mono">{c.field}</span>: <span className="sr-only">from </span>
          <del className={styles.before}>{c.before}</del>
          <span className={styles.arrow} aria-hidden>
            →
          </span>
          <span className="sr-only"> to </span>
          <ins className={styles.after}>{c.after}</ins>
        </li>
      ))}
    </ul>
  );
}
