/**
 * Zod compiles object parsers with `new Function` unless told not to, and probes for it as the
 * first object schema is built: under our CSP (script-src 'self', no 'unsafe-eval') the probe is
 * refused and reported as a violation on every page. Jitless parsing needs no eval.
 *
 * Zod keeps its settings on globalThis.__zod_globalConfig (so that copies of it agree) and reads
 * `jitless` when a schema is built, so this runs before any schema exists: main.tsx imports it
 * first. Setting it there rather than through z.config keeps zod out of the first page's script
 * (z.config would pull zod into the entry chunk, 3 KB over the home page budget).
 */
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
