/**
 * GET /problems and GET /problems/:type: one human-readable HTML page per problem type, what a
 * problem's `type` resolves to (RFC 9457 §3.1.1: dereferencing a locator type SHOULD give
 * human-readable documentation). Generated from the catalogue in src/errors/problem.ts, so a
 * type added there has its page at once. Open to every origin like /docs (GET routes are never
 * origin-checked); self-contained pages with no external assets. See docs/problems.md.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PROBLEM_BASE, PROBLEM_TYPES, ProblemError, problemTypeUri } from '../../errors/problem.ts';
import type { ProblemKind } from '../../errors/problem.ts';
import { API_VERSION } from '../../version.ts';

export const PROBLEMS_PATH = PROBLEM_BASE.replace(/\/$/, '');
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** Nothing but the page's own inline style: no scripts, no fetches, no external assets. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;',
  'line-height:1.5;color:#1b1b1b;background:#fff}code{background:#f2f2f2;padding:0 .25em}',
  'table{border-collapse:collapse}td,th{text-align:left;padding:.25rem .75rem .25rem 0}',
  'nav{margin-top:2rem;font-size:.9rem}',
].join('');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML text and attribute escaping (the catalogue is ours, but pages must never inject). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · Muster</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    `<nav><a href="${PROBLEMS_PATH}">All problem types</a> · <a href="/docs">API reference</a>` +
      ` · Muster API ${escapeHtml(API_VERSION)}</nav>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function isKind(name: string): name is ProblemKind {
  return Object.prototype.hasOwnProperty.call(PROBLEM_TYPES, name);
}

/** The page of one problem type: its type URI, status, title and description. */
export function problemTypePage(kind: ProblemKind): string {
  const spec = PROBLEM_TYPES[kind];
  return page(
    spec.title,
    [
      `<h1>${escapeHtml(spec.title)}</h1>`,
      `<p>Problem type <code>${escapeHtml(problemTypeUri(kind))}</code>, HTTP status ` +
        `<strong>${spec.status}</strong>.</p>`,
      `<p>${escapeHtml(spec.description)}</p>`,
      '<p>Muster answers errors as RFC 9457 problem details (<code>application/problem+json</code>) ' +
        'with <code>type</code>, <code>title</code>, <code>status</code> and <code>detail</code>; ' +
        '<code>detail</code> says what went wrong with the particular request.</p>',
    ].join('\n'),
  );
}

/** The index of every problem type in the catalogue. */
export function problemIndexPage(): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemKind[]).map((kind) => {
    const spec = PROBLEM_TYPES[kind];
    const uri = escapeHtml(problemTypeUri(kind));
    return `<tr><td><a href="${uri}"><code>${uri}</code></a></td><td>${spec.status}</td><td>${escapeHtml(spec.title)}</td></tr>`;
  });
  return page(
    'Problem types',
    [
      '<h1>Problem types</h1>',
      '<p>Every error Muster sends is an RFC 9457 problem details object whose <code>type</code> ' +
        'is one of these. A <code>type</code> is a relative reference: resolved against the URL ' +
        'of the request, it is the page of this server that explains it.</p>',
      '<table>',
      '<tr><th>type</th><th>Status</th><th>Title</th></tr>',
      ...rows,
      '</table>',
    ].join('\n'),
  );
}

function sendHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type(HTML_CONTENT_TYPE)
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'public, max-age=3600')
    .send(html);
}

/** Registers the problem type pages (hidden from the OpenAPI paths, like /docs). */
export function registerProblemPagesRoutes(app: FastifyInstance): void {
  app.get(PROBLEMS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    sendHtml(reply, problemIndexPage()),
  );
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    `${PROBLEMS_PATH}/:type`,
    {
      schema: {
        hide: true,
        params: Type.Object({ type: Type.String({ maxLength: 100 }) }),
      },
    },
    async (request, reply) => {
      const { type } = request.params;
      if (!isKind(type)) {
        throw new ProblemError('not-found', `no problem type "${type}"; see ${PROBLEMS_PATH}`);
      }
      return sendHtml(reply, problemTypePage(type));
    },
  );
}
