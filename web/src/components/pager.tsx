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
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
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
