// The button under a keyset-paged list; it goes away when the API says there is no next page.
interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

export function LoadMore({ pages }: { pages: Pages }) {
  if (!pages.hasNextPage) return null;
  return (
    <div className="load-more">
      <button type="button" className="btn" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
        {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
