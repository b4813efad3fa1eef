// Works out the tables the build ships ready-made rather than have every process make them again:
// today the built-in rules' splits (see src/adapters/tool-call/split-table.ts). Run after `tsc`, it
// writes them into the build's module; the bundles take the same module through `builtTables`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { splitRule } from '../src/adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../src/adapters/tool-call/signatures.js';
import { encodeSplits } from '../src/adapters/tool-call/split-table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILT_SPLITS_SOURCE = resolve(root, 'src/adapters/tool-call/built-splits.ts');

/** The module that holds the built-in rules' splits, as JavaScript (and so TypeScript too). */
export function builtSplitsModule(): string {
  return `export const BUILT_SPLITS = ${JSON.stringify(encodeSplits(TEXT_RULES, splitRule))};\n`;
}

/** For esbuild: a bundle takes the module with the table in place of the sources' empty one. */
export const builtTables: Plugin = {
  name: 'built-tables',
  setup(context) {
    context.onLoad({ filter: /[\\/]built-splits\.ts$/ }, (args) =>
      args.path === BUILT_SPLITS_SOURCE ? { contents: builtSplitsModule(), loader: 'js' } : undefined,
    );
  },
};

/** Writes the tables into the build in `dist` (compiled by `tsc` before). */
export function writeBuiltTables(dist = resolve(root, 'dist')): void {
  writeFileSync(resolve(dist, 'adapters/tool-call/built-splits.js'), builtSplitsModule());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeBuiltTables(process.argv[2]);
