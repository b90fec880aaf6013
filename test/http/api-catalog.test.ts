/**
 * GET and HEAD /.well-known/api-catalog (RFC 9727 with an RFC 9264 JSON linkset): media type
 * and profile parsed, the Link header, HEAD without a body, and every href resolvable.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';
import { mediaType } from '../support/openapi-contract.ts';

interface Target {
  href: string;
  type: string;
}
type LinkContext = { anchor: string } & Record<string, Target[] | string>;

/** Parses a Content-Type into its media type and parameters (RFC 9110 §8.3.1, quoted strings). */
function parseContentType(header: string): { type: string; params: Record<string, string> } {
  const [type, ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const match = /^\s*([!#$%&'*+.^_`|~\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^\s;]*))\s*$/.exec(part);
    assert.ok(match, `bad parameter ${part}`);
    params[match[1].toLowerCase()] =
      match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Parses a Link header (RFC 8288 §3) into [target, rel] pairs. */
function parseLinks(header: string): Array<{ target: string; rel: string }> {
  return header.split(/,(?=\s*<)/).map((link) => {
    const match = /^\s*<([^>]*)>\s*(.*)$/.exec(link);
    assert.ok(match, `bad link ${link}`);
    const rel = /(?:^|;)\s*rel="?([^";]+)"?/i.exec(match[2]);
    return { target: match[1], rel: rel?.[1] ?? '' };
  });
}

describe('the API catalog', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ env: { MUSTER_PUBLIC_URL: 'https://stats.example.org' } });
  });
  after(() => t.close());

  it('answers GET with the RFC 9727 linkset media type and profile', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    assert.equal(response.statusCode, 200);
    const { type, params } = parseContentType(String(response.headers['content-type']));
    assert.equal(type, 'application/linkset+json');
    assert.equal(params.profile, 'https://www.rfc-editor.org/info/rfc9727');
  });

  it('sends a Link header with rel="api-catalog" naming itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    const links = parseLinks(String(response.headers.link));
    const catalog = links.find((l) => l.rel === 'api-catalog');
    assert.ok(catalog, String(response.headers.link));
    assert.equal(
      new URL(catalog.target, 'https://stats.example.org').pathname,
      '/.well-known/api-catalog',
    );
  });

  it('answers HEAD with the same headers and no body', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    const head = await t.app.inject({ method: 'HEAD', url: '/.well-known/api-catalog' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers.link, get.headers.link);
    assert.equal(head.headers['api-version'], '1.0.0');
  });

  it('holds one link context anchored at the API base with service-desc, service-doc and status', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    const body = response.json() as { linkset: LinkContext[] };
    assert.equal(body.linkset.length, 1);
    const context = body.linkset[0];
    assert.equal(context.anchor, 'https://stats.example.org');
    for (const rel of ['service-desc', 'service-doc', 'status']) {
      const targets = context[rel] as Target[];
      assert.ok(Array.isArray(targets) && targets.length > 0, rel);
      for (const target of targets) {
        assert.ok(new URL(target.href).href.startsWith('https://stats.example.org/'), target.href);
        assert.match(target.type, /^[a-z]+\/[a-z0-9.+-]+$/);
      }
    }
  });

  it('has every href resolvable, answering with the media type it announces', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/api-catalog' });
    const context = (response.json() as { linkset: LinkContext[] }).linkset[0];
    const targets = Object.entries(context).filter(([rel]) => rel !== 'anchor');
    assert.equal(targets.length, 3);
    for (const [rel, list] of targets) {
      for (const target of list as Target[]) {
        const url = new URL(target.href);
        const followed = await t.app.inject({
          method: 'GET',
          url: url.pathname + url.search,
          headers: { accept: target.type },
        });
        assert.equal(followed.statusCode, 200, `${rel} ${target.href}`);
        assert.equal(
          mediaType(followed.headers['content-type']),
          target.type,
          `${rel} ${target.href}`,
        );
      }
    }
  });

  it('anchors at "/" with paths, never the Host header, when no public URL is configured', async () => {
    const other = await buildTestApp();
    try {
      const response = await other.app.inject({
        method: 'GET',
        url: '/.well-known/api-catalog',
        headers: { host: 'evil.example' },
      });
      assert.doesNotMatch(response.body, /evil/);
      assert.deepEqual((response.json() as { linkset: LinkContext[] }).linkset, [
        {
          anchor: '/',
          'service-desc': [{ href: '/.well-known/openapi.json', type: 'application/openapi+json' }],
          'service-doc': [{ href: '/docs', type: 'text/html' }],
          status: [{ href: '/api/health', type: 'application/health+json' }],
        },
      ]);
    } finally {
      await other.close();
    }
  });
});
