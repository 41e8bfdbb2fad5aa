import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry secrets: e-mail verification and reset tokens, OAuth codes. */
const SECRET_PARAMS = /([?&](?:token|code|state|code_verifier|id_token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The logger options with a request serializer that hides secret query parameters. Bodies
 * (passwords) are never logged: Fastify's request log holds method, URL, host and address only.
 */
export function withSafeRequestLogging(
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const base = logger === true ? {} : (logger as Record<string, unknown>);
  const serializers = (base.serializers as Record<string, unknown> | undefined) ?? {};
  return {
    ...base,
    serializers: {
      ...serializers,
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.hostname,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions['logger'];
}
