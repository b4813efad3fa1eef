// Works out the tables the build ships ready-made rather than have every process make them again:
// the built-in rules' splits (see src/adapters/tool-call/split-table.ts) and the scanner of their
// hints (see src/adapters/tool-call/hint-table.ts). Run after `tsc`, it writes them into the build's
// modules; the bundles take the same modules through `builtTables`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { HintScanner } from '../src/adapters/tool-call/hint-scan.js';
import { encodeAutomaton } from '../src/adapters/tool-call/hint-table.js';
import { SignatureMatcher, splitRule } from '../src/adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../src/adapters/tool-call/signatures.js';
import { encodeSplits } from '../src/adapters/tool-call/split-table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOOL_CALL = 'adapters/tool-call';

/** The module that holds the built-in rules' splits, as JavaScript (and so TypeScript too). */
export function builtSplitsModule(): string {
  return `export const BUILT_SPLITS = ${JSON.stringify(encodeSplits(TEXT_RULES, splitRule))};\n`;
}

/** The module that holds the scanner of the built-in rules' hints. */
export function builtScannerModule(): string {
  const hints = new SignatureMatcher(TEXT_RULES).hints;
  const table = encodeAutomaton(hints, new HintScanner(hints).automaton);
  return `export const BUILT_SCANNER = ${JSON.stringify({ hints: hints.join('\u0000'), table })};\n`;
}

/** Each module of tables, by its name in the sources and the build, and how it is made. */
const TABLES: Readonly<Record<string, () => string>> = {
  'built-splits': builtSplitsModule,
  'built-scanner': builtScannerModule,
};

/** For esbuild: a bundle takes the modules with the tables in place of the sources' empty ones. */
export const builtTables: Plugin = {
  name: 'built-tables',
  setup(context) {
    for (const [name, make] of Object.entries(TABLES)) {
      const source = resolve(root, 'src', TOOL_CALL, `${name}.ts`);
      context.onLoad({ filter: new RegExp(`[\\\\/]${name}\\.ts$`) }, (args) =>
        args.path === source ? { contents: make(), loader: 'js' } : undefined,
      );
    }
  },
};

/** Writes the tables into the build in `dist` (compiled by `tsc` before). */
export function writeBuiltTables(dist = resolve(root, 'dist')): void {
  for (const [name, make] of Object.entries(TABLES)) writeFileSync(resolve(dist, TOOL_CALL, `${name}.js`), make());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeBuiltTables(process.argv[2]);
