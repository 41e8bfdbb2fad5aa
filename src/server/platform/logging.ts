import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from '../config';

/**
 * The server's logger: JSON lines (one object per line, for a log collector) unless
 * `config.logPretty` (LOG_FORMAT=pretty, as npm run dev sets, or auto when stdout is a terminal),
 * then coloured one-line records a person reads. Pretty printing runs in this thread, so the last
 * lines before an exit are never lost.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logPretty'>,
): FastifyServerOptions['logger'] {
  if (!config.logPretty) return { level: config.logLevel };
  return {
    level: config.logLevel,
    stream: pretty({
      colorize: !!process.stdout.isTTY,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
    }),
  };
}
