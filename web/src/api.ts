/**
 * Calls Muster's API from the page's own origin (allowed by default) and turns RFC 9457 problem
 * details into an ApiError whose message is plain words; a 429 says when to retry. Paths, bodies
 * and answers are typed by web/src/generated/api-types.ts, generated from the served OpenAPI
 * document (scripts/write-api-types.ts), so a route change breaks this client's type check.
 */
import type { paths } from './generated/api-types.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly retryAfterSeconds: number | null;
  constructor(message: string, status: number, title: string, retryAfterSeconds: number | null) {
    super(message);
    this.status = status;
    this.title = title;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Problem {
  title?: string;
  detail?: string;
  errors?: Array<{ pointer?: string; detail?: string }>;
}

function retryAfter(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** "retry in 1 minute" -> "Retry in 1 minute." */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

async function failure(response: Response): Promise<ApiError> {
  let problem: Problem = {};
  try {
    problem = (await response.json()) as Problem;
  } catch {
    // Not a problem document (e.g. a proxy's page): the status line is all there is.
  }
  const title = problem.title ?? response.statusText ?? 'Request failed';
  const wait = retryAfter(response);
  const parts = [sentence(problem.detail ?? title)];
  for (const e of problem.errors?.slice(0, 3) ?? []) if (e.detail) parts.push(sentence(e.detail));
  // A 429 always says when to retry: from Retry-After unless the detail already says it.
  if (response.status === 429 && !/retry|try again/i.test(parts[0])) {
    parts.push(
      wait === null
        ? 'Please wait a moment before trying again.'
        : `Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
    );
  }
  return new ApiError(parts.join(' '), response.status, title, wait);
}

/**
 * How often a request refused as one of this page's own too many long computations (429
 * `too-many-computations`, docs/problems.md) is sent again: the page's sections ask at once, and
 * the service takes a client's long computations a few at a time, so the page waits its turn
 * (Retry-After, at most 5 s a time) rather than showing an error.
 */
const TURN_RETRIES = 5;

async function isOwnTurnToWait(response: Response): Promise<boolean> {
  if (response.status !== 429) return false;
  try {
    const problem = (await response.clone().json()) as { type?: string };
    return problem.type?.endsWith('/problems/too-many-computations') === true;
  } catch {
    return false;
  }
}

/** Resolves after `seconds`, or rejects with the abort as fetch would. */
function pause(seconds: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('Muster cannot be reached. Is the service running?', 0, 'Offline', null);
  }
}

async function call<T>(path: string, init: RequestInit): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const response = await send(path, init);
    if (response.ok) return (await response.json()) as T;
    if (attempt < TURN_RETRIES && (await isOwnTurnToWait(response))) {
      await pause(Math.min(5, Math.max(1, retryAfter(response) ?? 2)), init.signal);
      continue;
    }
    throw await failure(response);
  }
}

/** Paths of the contract with a POST operation (the statistics routes). */
export type PostPath = {
  [P in keyof paths]: paths[P] extends { post: object } ? P : never;
}[keyof paths];

/** Paths of the contract with a GET answering 200. */
export type GetPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: object } } } ? P : never;
}[keyof paths];

type PostOf<P extends PostPath> = paths[P] extends { post: infer O } ? O : never;
type GetOf<P extends GetPath> = paths[P] extends { get: infer O } ? O : never;
/** A 200 answer's body, whatever its JSON media type (e.g. application/health+json). */
type Json200<O> = O extends { responses: { 200: { content: infer C } } } ? C[keyof C] : never;

/** The JSON body a statistics route accepts, from the served OpenAPI document. */
export type RequestOf<P extends PostPath> =
  PostOf<P> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The JSON a statistics route answers with (200), from the served OpenAPI document. */
export type AnswerOf<P extends PostPath> = Json200<PostOf<P>>;

/** The JSON a GET route answers with (200), from the served OpenAPI document. */
export type GetAnswerOf<P extends GetPath> = Json200<GetOf<P>>;

/** POSTs a JSON body to a statistics route; body and answer are typed by the contract. */
export function post<P extends PostPath>(
  path: P,
  body: RequestOf<P>,
  signal?: AbortSignal,
): Promise<AnswerOf<P>> {
  return call<AnswerOf<P>>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

/** GETs a JSON document; the answer is typed by the contract. */
export function get<P extends GetPath>(path: P, signal?: AbortSignal): Promise<GetAnswerOf<P>> {
  return call<GetAnswerOf<P>>(path, { headers: { accept: 'application/json' }, signal });
}
