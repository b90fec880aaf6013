/**
 * The scrolling frame of a table: where the table is wider than the screen it scrolls sideways,
 * its row-header column stays in view (sticky, styles.css), and a cue above it counts the
 * columns beyond each edge, each count a button that brings them in. Nothing is left out on a
 * narrow screen, so a phone reaches every column a desktop shows.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** The width below which the dashboard lays itself out for a phone (styles.css). */
const NARROW = '(max-width: 600px)';

/** Whether the screen is a phone's now, following rotation and resizing. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const change = () => setNarrow(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return narrow;
}

interface Beyond {
  left: number;
  right: number;
}

/** How many heading cells lie, wholly or in part, beyond each edge of the frame. */
function measure(wrap: HTMLElement): Beyond {
  const box = wrap.getBoundingClientRect();
  const sticky = wrap.querySelector('thead th.row-head');
  const stuck = sticky?.getBoundingClientRect();
  let left = 0;
  let right = 0;
  let before = sticky !== null;
  for (const th of wrap.querySelectorAll('thead tr:first-child > th')) {
    if (th === sticky) {
      before = false;
      continue;
    }
    const r = th.getBoundingClientRect();
    if (r.right > box.right + 1) right += 1;
    else if (r.left < box.left - 1) left += 1;
    // A column before the sticky one is under it once it has moved over it; one after, once
    // the column has slid beneath it.
    else if (stuck && (before ? r.right > stuck.left + 1 : r.left < stuck.right - 1)) left += 1;
  }
  return { left, right };
}

const plural = (n: number) => `${n} ${n === 1 ? 'column' : 'columns'}`;

/** Web spec: CSSOM View's scrollBy and ResizeObserver keep the counts current. */
export function TableScroll({
  label,
  columns,
  children,
}: {
  label: string | undefined;
  /** The number of columns shown: a change re-counts what lies beyond the edges. */
  columns: number;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [beyond, setBeyond] = useState<Beyond>({ left: 0, right: 0 });
  useLayoutEffect(() => {
    const wrap = ref.current;
    if (wrap === null) return;
    const update = () => {
      const next = measure(wrap);
      setBeyond((prev) => (prev.left === next.left && prev.right === next.right ? prev : next));
    };
    update();
    wrap.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(wrap);
    const table = wrap.querySelector('table');
    if (table !== null) observer.observe(table);
    return () => {
      wrap.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [columns]);
  const shift = (direction: 1 | -1) => {
    const wrap = ref.current;
    if (wrap === null) return;
    const sticky = wrap.querySelector('thead th.row-head')?.getBoundingClientRect().width ?? 0;
    wrap.scrollBy({ left: direction * Math.max(80, (wrap.clientWidth - sticky) * 0.8) });
  };
  const more = beyond.left > 0 || beyond.right > 0;
  return (
    <div
      class={`table-scroll${beyond.right > 0 ? ' more-right' : ''}${beyond.left > 0 ? ' more-left' : ''}`}
    >
      {more && (
        <p class="scroll-cue" data-testid="scroll-cue">
          {beyond.left > 0 ? (
            <button type="button" class="link" onClick={() => shift(-1)}>
              ← {plural(beyond.left)}
            </button>
          ) : (
            <span />
          )}
          <span class="secondary">swipe the table</span>
          {beyond.right > 0 ? (
            <button type="button" class="link" onClick={() => shift(1)}>
              {plural(beyond.right)} more →
            </button>
          ) : (
            <span />
          )}
        </p>
      )}
      <div ref={ref} class="table-wrap" tabIndex={0} role="region" aria-label={label}>
        {children}
      </div>
    </div>
  );
}
