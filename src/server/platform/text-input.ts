import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/**
 * Text PostgreSQL cannot store (U+0000 is refused in text and jsonb) or that is not Unicode at
 * all (a UTF-16 surrogate without its pair, which JSON's \ud800 escape can produce): either
 * would reach a query and fail there as a server error.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No form of ours nests this deep; deeper JSON is abuse, refused before anything walks it. */
export const MAX_JSON_DEPTH = 64;

export const invalidCharacters = (field: string) =>
  new AppError(400, 'validation_failed', 'errors.validation', {
    [field]: 'validation.invalidCharacters',
  });

const tooDeep = () => new AppError(400, 'bad_request', 'errors.nestedTooDeep');

/**
 * The path (dot-separated, as validation errors name fields) of the first string or key in
 * `value` that cannot be stored, or null. Iterative, so hostile nesting cannot overflow the stack.
 */
export function findUnstorableText(value: unknown, root = ''): string | null | 'too-deep' {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 0 },
  ];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      if (UNSTORABLE.test(item.value)) return item.path || '_';
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    // An upload's bytes or stream are not text.
    if (
      ArrayBuffer.isView(item.value) ||
      typeof (item.value as { pipe?: unknown }).pipe === 'function'
    )
      continue;
    if (item.depth >= MAX_JSON_DEPTH) return 'too-deep';
    if (Array.isArray(item.value)) {
      item.value.forEach((v, i) =>
        stack.push({ value: v, path: join(item.path, i), depth: item.depth + 1 }),
      );
      continue;
    }
    for (const [key, v] of Object.entries(item.value)) {
      // A key is stored too (jsonb columns); it is named by where it sits.
      if (UNSTORABLE.test(key)) return item.path || '_';
      stack.push({ value: v, path: join(item.path, key), depth: item.depth + 1 });
    }
  }
  return null;
}

function check(value: unknown): void {
  const found = findUnstorableText(value);
  if (found === 'too-deep') throw tooDeep();
  if (found !== null) throw invalidCharacters(found);
}

/**
 * The one place the whole API refuses unstorable text, before any route, hook or database sees
 * it: path parameters and query string as soon as the route is known, JSON bodies once parsed.
 * Answers 400 naming the field, in the error format.
 */
export function registerTextValidation(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    check(request.params);
    check(request.query);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    check(request.body);
  });
}
