import { REFUSAL_HTTP_STATUS, Refusal } from '@decor/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';
import { DependencyUnavailableError, unavailableDependency } from './unavailable';
import { type AjvIssue, validationMessage } from './validation-messages';

export interface ErrorAnswer {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** What the client is told when the error is ours to explain; everything else is a plain 500. */
const FASTIFY_MESSAGES: Record<string, (request: FastifyRequest) => ErrorAnswer> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => ({ status: 400, message: 'Body is not valid JSON' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ({
    status: 400,
    message: 'Body is empty but the content type says JSON',
  }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ({
    status: 400,
    message: 'Content-Length does not match the body',
  }),
  FST_ERR_CTP_BODY_TOO_LARGE: () => ({ status: 413, message: 'Body is too large' }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => ({
    status: 415,
    message: `Unsupported content type '${request.headers['content-type'] ?? ''}'`,
  }),
};

interface MongoLikeError {
  name?: string;
  code?: unknown;
  kind?: string;
  path?: string;
  keyValue?: Record<string, unknown>;
  errors?: Record<string, { kind?: string; path?: string; message?: string }>;
}

/**
 * The fields of a violated unique index: MongoDB reports `keyValue`; servers that do not
 * (mongo-java-server) still name the index in the message ("index: email_1 dup key: …").
 */
function duplicateFields(err: MongoLikeError & { keyPattern?: object; message?: string }): string[] {
  const known = Object.keys(err.keyValue ?? err.keyPattern ?? {});
  if (known.length > 0) return known;
  const index = /index: (\S+) dup key/.exec(err.message ?? '')?.[1] ?? '';
  const fields: string[] = [];
  for (const match of index.matchAll(/(.+?)_(?:-?1|text|hashed|2dsphere|2d)(?:_|$)/g))
    fields.push(match[1] as string);
  return fields;
}

function mongoAnswer(err: MongoLikeError): ErrorAnswer | undefined {
  // A malformed id reached mongoose (routes should use `objectIdParam`, this is the safety net).
  if (err.name === 'CastError') {
    return err.kind === 'ObjectId' || err.path === '_id'
      ? { status: 400, message: 'Invalid id' }
      : { status: 400, message: `${err.path} must be a valid ${String(err.kind).toLowerCase()}` };
  }
  if (err.name === 'BSONError') return { status: 400, message: 'Invalid id' };
  if (err.name === 'ValidationError' && err.errors) {
    const first = Object.values(err.errors)[0];
    if (first) {
      const message =
        first.kind === 'required' ? `${first.path} is required` : (first.message ?? 'Invalid value');
      return { status: 400, message };
    }
  }
  if (err.code === 11000 || err.code === 11001) {
    const fields = duplicateFields(err);
    const what = fields.length > 0 ? `this ${fields.join(' and ')}` : 'these values';
    return { status: 409, message: `A record with ${what} already exists` };
  }
  if (err.name === 'VersionError') {
    return { status: 409, message: 'This record was changed by someone else; reload it and try again' };
  }
  if (err.name === 'DocumentNotFoundError') return { status: 404, message: 'Not found' };
  return undefined;
}

/** Maps any thrown error to the `{ message }` answer the spec's clients read. */
export function answerFor(error: unknown, request: FastifyRequest): ErrorAnswer {
  if (error instanceof HttpError) {
    return { status: error.status, message: error.message, headers: error.headers };
  }
  // A domain's refusal (no HTTP in a domain): its one mapping to a status is here, at the edge.
  if (error instanceof Refusal) return { status: REFUSAL_HTTP_STATUS[error.kind], message: error.message };
  const err = (error ?? {}) as FastifyError & MongoLikeError;
  if (Array.isArray(err.validation)) {
    const context = err.validationContext ?? 'body';
    return { status: 400, message: validationMessage(err.validation as AjvIssue[], context) };
  }
  const down = unavailableDependency(error);
  if (down) {
    const { status, message, headers } = new DependencyUnavailableError(down);
    return { status, message, headers };
  }
  const known = typeof err.code === 'string' ? FASTIFY_MESSAGES[err.code] : undefined;
  if (known) return known(request);
  const mongo = mongoAnswer(err);
  if (mongo) return mongo;
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500 && err.message) return { status, message: err.message };
  return { status: 500, message: 'An error occurred' };
}

/** Answers requests no route matched; the gateway's serves the frontends' pages. */
export type NotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** One error shape for the whole service: `{ message }` with the right status, 404 for unknown routes. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, opts: { notFound?: NotFoundHandler }) => {
    app.setErrorHandler((error, request, reply) => {
      const answer = answerFor(error, request);
      if (answer.status === 503 && unavailableDependency(error)) {
        request.log.warn({ err: error }, 'request refused: a dependency is out of reach');
      } else if (answer.status >= 500 && !(error instanceof HttpError)) {
        request.log.error({ err: error }, 'request failed');
      } else {
        request.log.info({ status: answer.status, reason: answer.message }, 'request refused');
      }
      if (answer.headers) reply.headers(answer.headers);
      return reply.code(answer.status).send({ message: answer.message });
    });

    app.setNotFoundHandler(
      opts.notFound ?? ((_request, reply) => reply.code(404).send({ message: 'Not found' })),
    );
  },
  { name: 'decor-error-handler' },
);
