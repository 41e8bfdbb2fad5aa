// Deep-merges JSON fragments into the locale catalogues, keeping key order and formatting stable:
//   node scripts/i18n-merge.mjs it fragment-it.json [en fragment-en.json ...]
// Parallel work edits its own namespaces through this instead of rewriting whole files.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const merge = (target, source) => {
  for (const [k, v] of Object.entries(source)) {
    if (
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      target[k] &&
      typeof target[k] === 'object'
    )
      merge(target[k], v);
    else target[k] = v;
  }
  return target;
};

const args = process.argv.slice(2);
if (args.length < 2 || args.length % 2) {
  console.error(
    'usage: node scripts/i18n-merge.mjs <it|en> <fragment.json> [<it|en> <fragment.json> ...]',
  );
  process.exit(2);
}
for (let i = 0; i < args.length; i += 2) {
  const file = new URL(`../src/web/locales/${args[i]}.json`, import.meta.url);
  const catalogue = JSON.parse(readFileSync(file, 'utf8'));
  merge(catalogue, JSON.parse(readFileSync(args[i + 1], 'utf8')));
  // Written as Prettier writes it, so `npm test` (which checks the catalogues' format) stays green.
  const path = fileURLToPath(file);
  const options = { ...(await prettier.resolveConfig(path)), filepath: path };
  const text = await prettier.format(JSON.stringify(catalogue, null, 2), options);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  console.log(`merged ${args[i + 1]} into ${args[i]}.json`);
}
