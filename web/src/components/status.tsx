/** Loading, empty and error states, shared by every page. */
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api.ts';
import type { Loaded } from '../use-api.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return (
    <p class="status empty" role="status">
      {children}
    </p>
  );
}

export function ErrorBox({ error }: { error: ApiError }) {
  return (
    <div class="error" role="alert">
      <strong>{error.status ? `${error.title} (${error.status})` : error.title}</strong>
      <p>{error.message}</p>
    </div>
  );
}

/** Renders loading / error / the data; keeps showing the previous data while reloading. */
export function Show<T>({
  result,
  what,
  children,
}: {
  result: Loaded<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (result.state === 'error') return <ErrorBox error={result.error} />;
  const { data } = result;
  if (data === undefined) return <Loading what={what} />;
  // The same element whether loading again or done: a fragment once done and a div while
  // reloading made every reload remount the children, losing what they held (the text typed in
  // a search box not yet sent, the focus). Once done it lays out as if it were not there.
  const reloading = result.state === 'loading';
  return (
    <div class={reloading ? 'reloading' : 'loaded'} aria-busy={reloading ? 'true' : undefined}>
      {children(data)}
    </div>
  );
}

/** The answer's warnings other than the demo notice (the banner says that). */
export function Warnings({ warnings }: { warnings: string[] }) {
  const shown = warnings.filter((w) => !w.startsWith('DEMO DATA'));
  if (shown.length === 0) return null;
  return (
    <ul class="warnings">
      {shown.map((w) => (
        <li key={w}>{w}</li>
      ))}
    </ul>
  );
}
