// Grey placeholder rows while a query is pending.
export function Skeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="skeleton" role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity but their position
        <div key={i} className="skeleton-row" />
      ))}
    </div>
  );
}
