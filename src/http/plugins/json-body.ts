/**
 * The JSON body parser (RFC 8259) with prototype-poisoning keys refused by name. It replaces
 * Fastify's own, which reports a `__proto__` key as "not valid JSON"; here it is a validation
 * problem that points at the key, and a syntax error says where parsing stopped. The body is
 * read as bytes and decoded strictly, so bytes that are not UTF-8 are named as such (RFC 8259
 * §8.1), and nesting is bounded before parsing (a deep body would overflow the stack).
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../errors/problem.ts';

/** Deepest nesting of arrays and objects accepted; requests need three or four levels. */
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The deepest nesting of arrays and objects in a JSON text (strings skipped); stops past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Decodes a body as UTF-8, refusing invalid bytes (RFC 8259 §8.1, RFC 3629). */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ProblemError('invalid-encoding', 'the request body is not valid UTF-8', {
      errors: [{ pointer: '', detail: 'the body contains bytes that are not valid UTF-8' }],
    });
  }
}

class ForbiddenKey extends Error {
  readonly key: string;
  constructor(key: string) {
    super(key);
    this.key = key;
  }
}

/** Parses a body, refusing `__proto__` anywhere and `constructor` objects with `prototype`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new ProblemError('validation', 'the request body is empty; send a JSON object', {
      errors: [{ pointer: '', detail: 'body must be a JSON object' }],
    });
  }
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    const detail = `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep`;
    throw new ProblemError('nesting-too-deep', detail, { errors: [{ pointer: '', detail }] });
  }
  try {
    // JSON.parse defines "__proto__" as an own property (no prototype change); the reviver
    // refuses it anyway so that no later copy or merge can turn it into one.
    return JSON.parse(text, function reviver(key, value: unknown) {
      if (key === '__proto__') throw new ForbiddenKey(key);
      if (
        key === 'constructor' &&
        typeof value === 'object' &&
        value !== null &&
        Object.prototype.hasOwnProperty.call(value, 'prototype')
      ) {
        throw new ForbiddenKey(key);
      }
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKey) {
      const detail = `the key "${error.key}"${error.key === 'constructor' ? ' with a "prototype"' : ''} is not accepted`;
      throw new ProblemError('validation', detail, {
        errors: [{ pointer: '', detail }],
      });
    }
    throw new ProblemError('malformed-json', 'the request body is not valid JSON', {
      errors: [{ pointer: '', detail: (error as Error).message }],
    });
  }
}

/** Replaces Fastify's application/json parser (the body limit still applies). */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(decodeUtf8Body(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
