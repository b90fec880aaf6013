/**
 * Errors found before any route runs, answered as problem documents (RFC 9457) from the one
 * catalogue with the security headers every answer carries (docs/problems.md):
 *
 * - requests Node's HTTP parser refuses before Fastify sees them (both Transfer-Encoding and
 *   Content-Length, broken headers, headers too large, a request not received in time): the
 *   problem is written on the raw socket, then the connection is closed (RFC 9112 §6.3: such a
 *   message cannot be framed, so the connection cannot be reused);
 * - CONNECT, which Node would close unanswered;
 * - paths Fastify's router refuses (not valid percent-encoded UTF-8, a parameter over
 *   maxParamLength): Fastify's frameworkErrors.
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../errors/problem.ts';
import type { ProblemKind } from '../errors/problem.ts';
import { API_VERSION } from '../version.ts';
import { securityHeaderPairs } from './plugins/security-headers.ts';
import { PROBLEM_CONTENT_TYPE, sendProblem, toProblemError } from './problem-handler.ts';

function kindFor(code: string | undefined): { kind: ProblemKind; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { kind: 'headers-too-large', detail: 'the request headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { kind: 'request-timeout', detail: 'the request was not received in time' };
    default:
      return {
        kind: 'malformed-request',
        detail: `the request could not be read as HTTP/1.1 (${code ?? 'parse error'})`,
      };
  }
}

/** Fastify's clientErrorHandler: a problem answer (RFC 9457) on the raw socket, then close. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A client that went away, or a socket already answering, gets nothing more.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || busy?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { kind, detail } = kindFor(error.code);
  writeRawProblem(socket, new ProblemError(kind, detail));
}

/**
 * Node's answer to CONNECT (no listener) is to close the socket unanswered: answer it as a 405
 * problem instead (RFC 9110 §9.3.6: a CONNECT is for proxies; Muster is an origin server).
 */
export function answerConnect(socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const allow = 'GET, HEAD, POST, OPTIONS';
  writeRawProblem(
    socket,
    new ProblemError(
      'method-not-allowed',
      'CONNECT is not supported: Muster is an origin server, not a proxy',
      { headers: { allow } },
    ),
  );
}

/** Writes `problem` as a whole HTTP/1.1 answer on the raw socket, then closes it. */
function writeRawProblem(socket: Socket, problem: ProblemError): void {
  const body = JSON.stringify(problem.toProblem());
  const headers = [...securityHeaderPairs(), ...Object.entries(problem.headers)]
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      headers +
      `API-Version: ${API_VERSION}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The problem for an error of Fastify's router (its `code`), before any route or hook ran. */
function frameworkProblem(error: FastifyError): ProblemError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ProblemError(
        'malformed-request',
        'the request path is not valid percent-encoded UTF-8 (RFC 3986 §2.1)',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ProblemError(
        'uri-too-long',
        'a segment of the request path is longer than any name served',
      );
    default:
      return toProblemError(error);
  }
}

/**
 * Fastify's frameworkErrors: no hook runs for these requests, before or after the handler, so
 * the headers every answer carries are set here.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  for (const [name, value] of securityHeaderPairs()) reply.header(name, value);
  reply.header('api-version', API_VERSION);
  void sendProblem(request, reply, frameworkProblem(error));
}
