/**
 * Where a V8 CPU profile (node --cpu-prof) spent its time: the top functions by self time and
 * the share of a few families (socket writes, better-auth, drizzle, pg, JSON, the rest).
 *
 *   npx tsx scripts/bench/lib/profile.ts <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const FAMILIES: [string, RegExp][] = [
  [
    'socket writes (writev, write)',
    /^(writev|writeGeneric|writeBuffer|writeUtf8String|_writeGeneric|_writev)/,
  ],
  ['better-auth', /better-auth|better-call/],
  ['drizzle', /drizzle-orm/],
  ['pg (driver, parsing)', /node_modules\/pg(-protocol|-types)?\//],
  ['ws', /node_modules\/ws\//],
  ['fastify', /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request)/],
  ['zod', /node_modules\/zod/],
  ['app code (src/)', /\/src\//],
  ['garbage collection', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
];

export function summarise(file: string, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
  const busy = total - idle.reduce((a, [, t]) => a + t, 0);
  const byFunction = new Map<string, number>();
  const families = new Map<string, number>();
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + t);
    const family = FAMILIES.find(([, re]) => re.test(functionName) || re.test(url))?.[0] ?? 'other';
    families.set(family, (families.get(family) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / Math.max(1, busy)).toFixed(1)} %`;
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`);
  for (const [family, t] of [...families].sort((a, b) => b[1] - a[1])) {
    if (family !== 'idle') console.log(`  ${pct(t).padStart(7)}  ${family}`);
  }
  console.log('  top functions by self time (share of busy time):');
  for (const [name, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    if (!name.startsWith('(idle)')) console.log(`  ${pct(t).padStart(7)}  ${name}`);
  }
}

if (process.argv[1]?.endsWith('profile.ts'))
  summarise(process.argv[2], Number(process.argv[3] ?? 15));
