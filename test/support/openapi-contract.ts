/**
 * Checks responses against the served OpenAPI 3.1 document with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1 schemas): the contract and fuzz tests hold the service to what it
 * documents, problem responses included.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse as InjectResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its function may sit on .default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown> };
  tags?: Array<{ name: string }>;
}

export interface MediaObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

export interface OperationObject {
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content: Record<string, MediaObject>; required?: boolean };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, MediaObject>;
    }
  >;
}

/** The media type of a Content-Type header, parsed (RFC 9110 §8.3.1), lower case. */
export function mediaType(header: string | string[] | number | undefined): string {
  const value = Array.isArray(header) ? header[0] : String(header ?? '');
  return value.split(';', 1)[0].trim().toLowerCase();
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Response validators compiled from one OpenAPI document. */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  readonly document: OpenApiDocument;
  constructor(document: OpenApiDocument) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'openapi.json');
  }

  /** Fetches the document from the app and compiles it. */
  static async load(app: FastifyInstance): Promise<OpenApiContract> {
    const response = await app.inject({ method: 'GET', url: '/.well-known/openapi.json' });
    assert.equal(response.statusCode, 200, response.body);
    return new OpenApiContract(response.json() as OpenApiDocument);
  }

  /** Every [path, method] the document lists for `method` (lower case, e.g. 'post'). */
  operations(method: string): string[] {
    return Object.entries(this.document.paths)
      .filter(([, item]) => item[method] !== undefined)
      .map(([path]) => path)
      .sort();
  }

  operation(path: string, method: string): OperationObject {
    const op = this.document.paths[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is not in the OpenAPI document`);
    return op;
  }

  /** The request example of a POST operation (media `example`, `examples`, or schema examples). */
  requestExample(path: string): unknown {
    const media = this.operation(path, 'post').requestBody?.content['application/json'];
    if (media === undefined) return undefined;
    if (media.example !== undefined) return media.example;
    const first = Object.values(media.examples ?? {})[0];
    if (first !== undefined) return first.value;
    const schema = media.schema as { examples?: unknown[]; example?: unknown } | undefined;
    return schema?.examples?.[0] ?? schema?.example;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.cache.get(pointer);
    if (validate === undefined) {
      const found = this.ajv.getSchema(`openapi.json#${pointer}`);
      assert.ok(found, `no schema at ${pointer}`);
      validate = found;
      this.cache.set(pointer, validate);
    }
    return validate;
  }

  /** Validates a request body against the operation's request schema; returns Ajv's errors. */
  requestErrors(path: string, body: unknown): unknown[] {
    const pointer = `/paths/${escapePointer(path)}/post/requestBody/content/application~1json/schema`;
    const validate = this.validator(pointer);
    return validate(body) ? [] : (validate.errors ?? []);
  }

  /**
   * Asserts that the response is documented for this operation (status and media type) and
   * that its body matches the documented schema.
   */
  assertResponse(path: string, method: string, response: InjectResponse): void {
    const op = this.operation(path, method);
    const status = String(response.statusCode);
    const documented = op.responses[status];
    assert.ok(
      documented,
      `${method.toUpperCase()} ${path} answered ${status}, which is not documented: ${response.body.slice(0, 300)}`,
    );
    if (documented.content === undefined) return;
    const type = mediaType(response.headers['content-type']);
    assert.ok(
      documented.content[type],
      `${method.toUpperCase()} ${path} ${status} sent ${type}; documented: ${Object.keys(documented.content).join(', ')}`,
    );
    // Only JSON bodies (application/json and +json types) are checked against a schema.
    if (!/^application\/(?:[\w.-]+\+)?json$/.test(type)) return;
    const pointer = `/paths/${escapePointer(path)}/${method}/responses/${status}/content/${escapePointer(type)}/schema`;
    const validate = this.validator(pointer);
    const body: unknown = JSON.parse(response.body);
    assert.ok(
      validate(body),
      `${method.toUpperCase()} ${path} ${status} does not match its schema: ` +
        `${JSON.stringify(validate.errors?.slice(0, 5))}\n${response.body.slice(0, 500)}`,
    );
  }
}
