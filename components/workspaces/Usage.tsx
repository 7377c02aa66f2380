// A workspace's storage used: a size that never wraps, with the exact bytes on hover, and the
// line of counts the workspace page shows under its name.
import { formatBytes } from '@/lib/console/format';
import type { Owner } from '@/lib/schemas/records';

type OwnerUsage = NonNullable<Owner['usage']>;

const exact = (n: number) => `${n.toLocaleString('en')} bytes`;

export function UsageSize({ bytes }: { bytes: number }) {
  return (
    <span className="size" title={exact(bytes)} data-testid="usage-size">
      {formatBytes(bytes)}
    </span>
  );
}

export function UsageSummary({ usage }: { usage: OwnerUsage }) {
  return (
    <p className="usage muted" data-testid="usage">
      <UsageSize bytes={usage.bytes} /> in {usage.files.toLocaleString('en')} file {usage.files === 1 ? 'version' : 'versions'},{' '}
      {usage.entries.toLocaleString('en')} {usage.entries === 1 ? 'entry' : 'entries'}
      <span className="hint"> · identical bytes are stored once, so the disk may hold less</span>
    </p>
  );
}
