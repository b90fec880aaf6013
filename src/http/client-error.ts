/**
 * Requests Node's HTTP parser refuses before Fastify sees them (both Transfer-Encoding and
 * Content-Length, broken headers, headers too large, a request not received in time) are
 * answered with a problem document (RFC 9457) from the catalogue, then the connection is
 * closed (RFC 9112 §6.3: such a message cannot be framed, so the connection cannot be reused).
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ProblemError } from '../errors/problem.ts';
import type { ProblemKind } from '../errors/problem.ts';
import { PROBLEM_CONTENT_TYPE } from './problem-handler.ts';

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
  const problem = new ProblemError(kind, detail);
  const body = JSON.stringify(problem.toProblem());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
