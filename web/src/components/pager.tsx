/** Previous / next paging with the position said in words. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  what,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  what: string;
}) {
  // An empty answer says so in words (the page's empty state); "0–0 of 0" would add nothing.
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav class="pager" aria-label={`${what} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span aria-live="polite">
        {first}–{last} of {total.toLocaleString('en')} {what} (page {page} of {pages})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
