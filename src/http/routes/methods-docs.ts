/**
 * GET /docs/statistics and /docs/ratings: the methods (docs/statistics.md, docs/ratings.md)
 * rendered to HTML once at start with marked, served by Muster itself so that the dashboard's
 * definitions link to them offline. Each heading gets GitHub's anchor (lower case, punctuation
 * dropped, spaces as hyphens), so "#compareto" works here as on the repository; links between
 * the two pages stay on Muster, a link to http-api.md goes to the API reference at /docs.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Marked } from 'marked';
import { DOCS_PATH } from './api-catalog.ts';

/** Where the methods' Markdown lives, and the pages served from it. */
export const DOCS_ROOT = resolve(import.meta.dirname, '../../../docs');
export const METHOD_PAGES = { statistics: 'Statistics', ratings: 'Ratings' } as const;
export type MethodPage = keyof typeof METHOD_PAGES;

const STYLE = `body{font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1d2430;background:#fff}
main,nav{max-width:46rem;margin:0 auto;padding:0 1rem}nav{padding-top:.8rem;display:flex;gap:1rem;flex-wrap:wrap}
a{color:#1f5fa8}pre{overflow:auto;background:#f4f6f8;padding:.6rem .8rem;border-radius:6px}
code{font-size:.9em}table{border-collapse:collapse}td,th{border:1px solid #d5dae1;padding:.25rem .5rem}
:target{scroll-margin-top:1rem;background:#fff4d6}
@media (prefers-color-scheme:dark){body{color:#e6e9ee;background:#14181f}a{color:#7fb2ef}pre{background:#1d232c}:target{background:#3d3114}}`;

/** Only this page's own style (by its hash); no script at all. */
const CSP = [
  "default-src 'none'",
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GitHub's heading anchor: "A player's page" -> "a-players-page". */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/**
 * "ratings.md#elo" -> "/docs/ratings#elo"; "http-api.md#x" -> "/docs"; a document the service does
 * not serve (data-model.md) -> null, its text stays unlinked; other links unchanged.
 */
export function localHref(href: string): string | null {
  const match = /^([a-z-]+)\.md(#.*)?$/.exec(href);
  if (match === null) return href;
  if (match[1] in METHOD_PAGES) return `${DOCS_PATH}/${match[1]}${match[2] ?? ''}`;
  return match[1] === 'http-api' ? DOCS_PATH : null;
}

const escape = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** One Markdown document as an HTML page with anchored headings. */
export function renderMethodPage(page: MethodPage, markdown: string): string {
  const seen = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        const base = slug(text);
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        const id = count === 0 ? base : `${base}-${count}`;
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const label = this.parser.parseInline(tokens);
        const local = localHref(href);
        if (local === null) return label;
        const titled = title ? ` title="${escape(title)}"` : '';
        return `<a href="${escape(local)}"${titled}>${label}</a>`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  const links = Object.entries(METHOD_PAGES)
    .map(([p, name]) => `<a href="${DOCS_PATH}/${p}">${name}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${METHOD_PAGES[page]} · Muster</title><link rel="icon" href="/favicon.svg"><style>${STYLE}</style></head>
<body><nav aria-label="Methods"><a href="/">Muster dashboard</a>${links}<a href="${DOCS_PATH}">API reference</a></nav>
<main>${body}</main></body></html>`;
}

/**
 * Each page rendered in this process, by its Markdown: an app built again over the same files
 * (a test file builds dozens) serves what the last one rendered: both pages cost an app about
 * 25 ms of CPU to render.
 */
const rendered = new Map<string, string>();

/** Registers one route per methods page, each rendered now (or earlier in this process). */
export function registerMethodsDocsRoutes(app: FastifyInstance, root = DOCS_ROOT): void {
  for (const page of Object.keys(METHOD_PAGES) as MethodPage[]) {
    const markdown = readFileSync(resolve(root, `${page}.md`), 'utf8');
    const key = `${page}\u0000${markdown}`;
    let html = rendered.get(key);
    if (html === undefined) {
      html = renderMethodPage(page, markdown);
      if (rendered.size >= 8) rendered.clear();
      rendered.set(key, html);
    }
    app.get(`${DOCS_PATH}/${page}`, { schema: { hide: true } }, (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CSP)
        .send(html),
    );
  }
}
