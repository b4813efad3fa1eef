// Works out the tables the build ships ready-made rather than have every process make them again:
// the built-in rules' matcher laid out (see src/adapters/tool-call/layout-table.ts), the scanner of their
// hints (see src/adapters/tool-call/hint-table.ts) and the tables of the scan for credentials'
// hints (see src/core/secrets.ts). Run after `tsc`, it writes them into the build's
// modules; the bundles take the same modules through `builtTables`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { HintScanner } from '../src/adapters/tool-call/hint-scan.js';
import { encodeAutomaton } from '../src/adapters/tool-call/hint-table.js';
import { encodeLayout, inMatchingOrder } from '../src/adapters/tool-call/layout-table.js';
import { layOut, SignatureMatcher, splitRule } from '../src/adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../src/adapters/tool-call/signatures.js';
import { HINT_TABLE_MAKING } from '../src/core/secrets.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The module that holds the built-in rules' matcher laid out, as JavaScript (and so TypeScript too). */
export function builtLayoutModule(): string {
  const ordered = inMatchingOrder(TEXT_RULES);
  return `export const BUILT_LAYOUT = ${JSON.stringify(encodeLayout(ordered, layOut(ordered), splitRule))};\n`;
}

/** The module that holds the scanner of the built-in rules' hints. */
export function builtScannerModule(): string {
  const hints = new SignatureMatcher(TEXT_RULES).hints;
  const table = encodeAutomaton(hints, new HintScanner(hints).automaton);
  return `export const BUILT_SCANNER = ${JSON.stringify({ hints: hints.join('\u0000'), table })};\n`;
}

/** The module that holds the tables of the scan for credentials' hints. */
export function builtSecretHintsModule(): string {
  return `export const BUILT_SECRET_HINTS = ${JSON.stringify(HINT_TABLE_MAKING.shipped())};\n`;
}

/** Each module of tables, by its path in the sources and the build (without its extension), and how it is made. */
const TABLES: Readonly<Record<string, () => string>> = {
  'adapters/tool-call/built-layout': builtLayoutModule,
  'adapters/tool-call/built-scanner': builtScannerModule,
  'core/built-secret-hints': builtSecretHintsModule,
};

/** For esbuild: a bundle takes the modules with the tables in place of the sources' empty ones. */
export const builtTables: Plugin = {
  name: 'built-tables',
  setup(context) {
    for (const [path, make] of Object.entries(TABLES)) {
      const source = resolve(root, 'src', `${path}.ts`);
      const name = path.slice(path.lastIndexOf('/') + 1);
      context.onLoad({ filter: new RegExp(`[\\\\/]${name}\\.ts$`) }, (args) =>
        args.path === source ? { contents: make(), loader: 'js' } : undefined,
      );
    }
  },
};

/** Writes the tables into the build in `dist` (compiled by `tsc` before). */
export function writeBuiltTables(dist = resolve(root, 'dist')): void {
  for (const [path, make] of Object.entries(TABLES)) writeFileSync(resolve(dist, `${path}.js`), make());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeBuiltTables(process.argv[2]);
