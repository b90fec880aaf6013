/**
 * Follows GET /api/live (docs/http-api.md#live) while `enabled`: calls `changed` each time the
 * served data changes in a way that concerns `event` (a change naming it, or one too wide to
 * name its events), so a running event's page fetches itself again without a reload.
 */
import { useEffect, useRef } from 'preact/hooks';

/** The `change` event's data (src/http/live/live-hub.ts). */
interface LiveChange {
  dataVersion: number;
  events: string[] | null;
}

export function useLiveChanges(event: string, enabled: boolean, changed: () => void): void {
  // The latest callback, without reopening the stream when it is a new function.
  const callback = useRef(changed);
  callback.current = changed;
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    // The browser reconnects on its own (the stream's `retry`), sending Last-Event-ID, so a
    // change made while it was away still arrives.
    const source = new EventSource('/api/live');
    source.addEventListener('change', (message) => {
      const change = JSON.parse((message as MessageEvent<string>).data) as LiveChange;
      if (change.events === null || change.events.includes(event)) callback.current();
    });
    return () => source.close();
  }, [event, enabled]);
}
