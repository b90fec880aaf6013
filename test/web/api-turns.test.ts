/**
 * The dashboard's API client waits its turn (web/src/api.ts, docs/problems.md): a request refused
 * as one of the page's own too many long computations is sent again after Retry-After, while any
 * other refusal, a rate limit included, is shown at once.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ApiError, post } from '../../web/src/api.ts';

const realFetch = globalThis.fetch;

/** Answers the page's requests from `answers`, one per call, and counts the calls. */
function stubFetch(answers: Array<() => Response>): { calls: () => number } {
  let calls = 0;
  globalThis.fetch = (async () => answers[Math.min(calls++, answers.length - 1)]()) as typeof fetch;
  return { calls: () => calls };
}

const problem = (kind: string, status: number, retryAfter: string) => () =>
  new Response(JSON.stringify({ type: `/problems/${kind}`, title: kind, status, detail: kind }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'retry-after': retryAfter },
  });
const ok = () => new Response(JSON.stringify({ data: { answered: true } }), { status: 200 });

describe('the dashboard API client and a refusal for its own long computations', () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('sends a request refused as too-many-computations again after Retry-After', async () => {
    const stub = stubFetch([problem('too-many-computations', 429, '1'), ok]);
    const started = Date.now();
    const answer = (await post('/api/rankings', {})) as unknown as { data: { answered: boolean } };
    assert.equal(answer.data.answered, true);
    assert.equal(stub.calls(), 2);
    assert.ok(Date.now() - started >= 900, 'it waited for Retry-After');
  });

  it('shows a rate limit at once, with when to retry', async () => {
    const stub = stubFetch([problem('rate-limited', 429, '30'), ok]);
    await assert.rejects(post('/api/rankings', {}), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterSeconds, 30);
      return true;
    });
    assert.equal(stub.calls(), 1);
  });

  it('gives up after its retries and shows the refusal', async () => {
    const stub = stubFetch([problem('too-many-computations', 429, '0')]);
    await assert.rejects(post('/api/rankings', {}), ApiError);
    assert.equal(stub.calls(), 6);
  });

  it('stops waiting when the page no longer needs the answer', async () => {
    stubFetch([problem('too-many-computations', 429, '5'), ok]);
    const controller = new AbortController();
    const pending = post('/api/rankings', {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, (error: unknown) => (error as Error).name === 'AbortError');
  });
});
