'use client';
// Time left until a unix-seconds expiry, ticking every second.
import { useEffect, useState } from 'react';
import { formatDuration } from '@/lib/console/format';

export function Countdown({ until }: { until: number }) {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(t);
  }, []);
  const left = until - now;
  return (
    <span className="countdown" data-testid="countdown" role="timer" aria-live="off">
      {left > 0 ? `expires in ${formatDuration(left)}` : 'expired'}
    </span>
  );
}
