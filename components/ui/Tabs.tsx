'use client';
// Tabs kept in the URL (?tab=…), so each one is linkable and the back button moves between them.
// The first tab is the page without the parameter.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import type { ReactNode } from 'react';

export interface Tab {
  id: string;
  label: string;
  panel: () => ReactNode;
}

export function Tabs({ tabs, label }: { tabs: Tab[]; label: string }) {
  const path = usePathname() ?? '';
  const params = useSearchParams() ?? new URLSearchParams();
  const current = tabs.find((t) => t.id === params.get('tab')) ?? tabs[0];
  const href = (t: Tab) => {
    const q = new URLSearchParams(params.toString());
    if (t === tabs[0]) q.delete('tab');
    else q.set('tab', t.id);
    const s = q.toString();
    return s ? `${path}?${s}` : path;
  };
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label}>
        {tabs.map((t) => (
          <Link
            key={t.id}
            id={`tab-${t.id}`}
            role="tab"
            aria-selected={t === current}
            aria-controls={`panel-${t.id}`}
            className="tab"
            href={href(t)}
            replace
            scroll={false}
          >
            {t.label}
          </Link>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${current.id}`} aria-labelledby={`tab-${current.id}`}>
        {current.panel()}
      </div>
    </>
  );
}
