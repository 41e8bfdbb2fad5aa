import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLanguage, t, hasKey } from './i18n';

/**
 * An expected failure with its HTTP status. `message` and `fields` hold locale keys (or plain
 * text); the error handler renders them in the request's language as
 * {"error": {"code", "message", "fields"?}}.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly fields?: Record<string, string>,
    public readonly vars?: Record<string, string | number | ((language: string) => string)>,
  ) {
    super(message);
  }

  /** The values of the message in `language`: a function writes its value in that language. */
  varsIn(language: string): Record<string, string | number> | undefined {
    if (!this.vars) return undefined;
    return Object.fromEntries(
      Object.entries(this.vars).map(([k, v]) => [k, typeof v === 'function' ? v(language) : v]),
    );
  }
}

export const badRequest = (message = 'errors.badRequest', fields?: Record<string, string>) =>
  new AppError(400, 'bad_request', message, fields);
export const validationFailed = (fields: Record<string, string>) =>
  new AppError(400, 'validation_failed', 'errors.validation', fields);
export const unauthorized = (message = 'errors.unauthorized') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'errors.forbidden') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'errors.notFound') => new AppError(404, 'not_found', message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, 'conflict', message, fields);

const statusCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};
const statusMessages: Record<number, string> = {
  400: 'errors.badRequest',
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.notFound',
  413: 'errors.payloadTooLarge',
  415: 'errors.unsupportedMediaType',
  429: 'errors.rateLimited',
};

function fieldPath(instancePath: string | undefined, fallback?: string): string {
  const path = (instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return path || fallback || '_';
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & Partial<AppError>, request, reply) => {
    const lang = requestLanguage(request);
    const vars = error instanceof AppError ? error.varsIn(lang) : undefined;
    const render = (key: string) => (hasKey(key) ? t(lang, key, vars) : key);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const params = issue.params as { issue?: { path?: (string | number)[] } } | undefined;
        const key = fieldPath(issue.instancePath, params?.issue?.path?.join('.'));
        if (fields[key]) continue;
        const message = issue.message ?? 'validation.invalid';
        fields[key] = hasKey(message) ? t(lang, message) : t(lang, 'validation.invalid');
      }
      return reply.status(400).send({
        error: { code: 'validation_failed', message: t(lang, 'errors.validation'), fields },
      });
    }

    if (error instanceof AppError) {
      if (error.statusCode === 429 && typeof error.vars?.seconds === 'number')
        reply.header('retry-after', String(error.vars.seconds));
      const fields = error.fields
        ? Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, render(v)]))
        : undefined;
      return reply.status(error.statusCode).send({
        error: {
          code: error.code,
          message: render(error.message),
          ...(fields ? { fields } : {}),
        },
      });
    }

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ error: { code: 'internal', message: t(lang, 'errors.internal') } });
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large, rate limits.
      const message = statusMessages[status] ? t(lang, statusMessages[status]) : error.message;
      if (status === 429 && error.vars === undefined && reply.getHeader('retry-after')) {
        reply.header('retry-after', reply.getHeader('retry-after'));
      }
      return reply
        .status(status)
        .send({ error: { code: statusCodes[status] ?? 'client_error', message } });
    }

    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ error: { code: 'internal', message: t(lang, 'errors.internal') } });
  });
}

/** 404 in the error format, in the request's language. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  const lang = requestLanguage(request);
  return reply
    .status(404)
    .send({ error: { code: 'not_found', message: t(lang, 'errors.notFound') } });
}

/** The error body every route documents in OpenAPI: {"error": {"code", "message", "fields"?}}. */
export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

/**
 * A route's refusals for its OpenAPI `response`, each answered with errorSchema:
 * `response: { 201: postSchema, ...errorResponses(400, 401, 429) }`.
 */
export const errorResponses = <const C extends number>(...codes: C[]) =>
  Object.fromEntries(codes.map((c) => [c, errorSchema])) as Record<C, typeof errorSchema>;
