/**
 * Matches a request's Origin header against the configured allowed origins: exact
 * `scheme://host[:port]` entries and anchored `https://*.example.org` wildcards
 * (RFC 6454 §7 serialisation; WHATWG URL host normalisation).
 */

interface ExactPattern {
  kind: 'exact';
  origin: string;
}

interface WildcardPattern {
  kind: 'wildcard';
  scheme: string;
  /** The registrable part after `*.`, normalised, e.g. `example.org`. */
  suffix: string;
  /** The port as serialised by URL (empty for the scheme's default port). */
  port: string;
}

type OriginPattern = ExactPattern | WildcardPattern;

const ORIGIN_SHAPE = /^(https?):\/\/([^/?#@\s]+)$/i;
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Serialises an origin the way a browser sends it (lower case, default port dropped), or null. */
export function normaliseOrigin(text: string): string | null {
  const match = ORIGIN_SHAPE.exec(text.trim());
  if (!match) return null;
  let url: URL;
  try {
    url = new URL(`${match[1]}://${match[2]}`);
  } catch {
    return null;
  }
  // Anything URL had to repair (userinfo, a path, an empty host) is not an origin.
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.origin;
}

function compile(pattern: string): OriginPattern {
  const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(pattern);
  if (!wildcard) {
    const origin = normaliseOrigin(pattern);
    if (origin === null) throw new Error(`"${pattern}" is not an origin`);
    return { kind: 'exact', origin };
  }
  const url = new URL(`${wildcard[1]}://${wildcard[2]}`);
  return {
    kind: 'wildcard',
    scheme: url.protocol,
    suffix: url.hostname,
    port: url.port,
  };
}

function matchesWildcard(pattern: WildcardPattern, url: URL): boolean {
  if (url.protocol !== pattern.scheme || url.port !== pattern.port) return false;
  const host = url.hostname;
  // At least one whole label before ".suffix": never the bare domain, never "evilexample.org".
  if (!host.endsWith('.' + pattern.suffix)) return false;
  const labels = host.slice(0, -(pattern.suffix.length + 1)).split('.');
  return labels.length > 0 && labels.every((label) => DNS_LABEL.test(label));
}

/** Builds a predicate for the Origin header value (docs/http-api.md#origins-and-cors). */
export function originMatcher(patterns: readonly string[]): (origin: string) => boolean {
  const compiled = patterns.map(compile);
  const exact = new Set(
    compiled.filter((p): p is ExactPattern => p.kind === 'exact').map((p) => p.origin),
  );
  const wildcards = compiled.filter((p): p is WildcardPattern => p.kind === 'wildcard');
  return (origin) => {
    const normalised = normaliseOrigin(origin);
    if (normalised === null) return false;
    if (exact.has(normalised)) return true;
    if (wildcards.length === 0) return false;
    const url = new URL(normalised);
    return wildcards.some((w) => matchesWildcard(w, url));
  };
}
