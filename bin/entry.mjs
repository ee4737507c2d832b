// @ts-check
// Runs a TypeScript entry point of this checkout from its prebuilt bundle (lib/prebuilt/entryBundle.mjs), as
// `node bin/entry.mjs <entry, relative to the checkout> ARGS`: the entry sees ARGS as its own, after its own path.
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { importEntry } from '../lib/prebuilt/entryBundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [entry] = process.argv.splice(2, 1);
if (!entry) {
  process.stderr.write('usage: node bin/entry.mjs <entry.ts> [args...]\n');
  process.exit(2);
}
process.argv[1] = path.join(root, entry);
await importEntry(entry, root);
