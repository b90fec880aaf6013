/** Loads an API answer for a request, re-fetching when the request changes. */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

export type Loaded<T> =
  | { state: 'loading'; data?: T }
  | { state: 'error'; error: ApiError }
  | { state: 'done'; data: T };

/** Runs `load` whenever `key` changes; a newer request aborts the older one. */
export function useApi<T>(
  key: string | null,
  load: (signal: AbortSignal) => Promise<T>,
): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    // The last answer stays on screen while the next loads, also when a request replaces one
    // still loading: dropping it then showed the loading line and remounted the view.
    setResult((previous) => ({
      state: 'loading',
      data: previous.state === 'error' ? undefined : previous.data,
    }));
    load(controller.signal).then(
      (data) => setResult({ state: 'done', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError =
          error instanceof ApiError
            ? error
            : new ApiError(String((error as Error)?.message ?? error), 0, 'Error', null);
        setResult({ state: 'error', error: apiError });
      },
    );
    return () => controller.abort();
  }, [key]);
  return result;
}
