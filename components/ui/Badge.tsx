// A short coloured label for a state; EnvironmentBadge is the live / sandbox one used everywhere.
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'accent';

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export function EnvironmentBadge({ sandbox }: { sandbox: boolean }) {
  return sandbox ? <Badge tone="warn">sandbox</Badge> : <Badge tone="good">live</Badge>;
}
