/** POSTs a JSON body to a test app from its allowed origin and reads the JSON answer. */
import { TEST_ORIGIN } from './test-app.ts';
import type { TestApp } from './test-app.ts';

export type Json = Record<string, unknown> & { data: any; meta: any; errors?: any[] }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The status and JSON body of a POST of `body` to `url`. */
export async function post(
  t: TestApp,
  url: string,
  body: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body as Record<string, unknown>,
    headers: { origin: TEST_ORIGIN },
  });
  return { status: res.statusCode, json: res.json() as Json };
}
