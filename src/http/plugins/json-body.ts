/**
 * The JSON body parser (RFC 8259) with prototype-poisoning keys refused by name. It replaces
 * Fastify's own, which reports a `__proto__` key as "not valid JSON"; here it is a validation
 * problem that points at the key, and a syntax error says where parsing stopped.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../errors/problem.ts';

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** Parses a body, refusing `__proto__` anywhere and `constructor` objects with `prototype`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new ProblemError('validation', 'the request body is empty; send a JSON object', {
      errors: [{ pointer: '', detail: 'body must be a JSON object' }],
    });
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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
