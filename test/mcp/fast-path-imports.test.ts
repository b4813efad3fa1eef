/**
 * The fast path relays tool calls without the SDK's schemas: a module on it that imported zod, or one
 * of the SDK's schemas, would bring the schema walk back onto every relayed call. Walks the imports of
 * the fast path within the proxy (the guard is reached through its seam, and is not the relay).
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MCP = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'mcp');
const ENTRIES = ['fast-call.ts', 'line-transport.ts'];

const RELATIVE_IMPORT = /\bfrom\s*['"](\.\/[^'"]+)['"]/g;
const PACKAGE_IMPORT = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"](@modelcontextprotocol\/[^'"]+)['"]/g;
const ZOD_IMPORT = /\bfrom\s*['"]zod(?:\/[^'"]*)?['"]|\bimport\s*\(\s*['"]zod/;

/** The proxy's modules the entries reach, following imports inside `src/mcp` only. */
function fastPathModules(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      visit(resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
    }
  };
  for (const entry of ENTRIES) visit(resolve(MCP, entry));
  return [...seen];
}

/** Values named `…Schema` imported from the SDK: its zod schemas (types are erased, and harmless). */
function sdkSchemasIn(text: string): string[] {
  return [...text.matchAll(PACKAGE_IMPORT)].flatMap((match) =>
    (match[1] as string)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => !name.startsWith('type ') && /Schema$/.test(name)),
  );
}

describe('the fast path’s modules', () => {
  const modules = fastPathModules();

  it('include the relay, its transport and its check of results', () => {
    const names = modules.map((file) => relative(MCP, file));
    expect(names).toEqual(
      expect.arrayContaining([
        'fast-call.ts',
        'relay-call.ts',
        'upstream-client.ts',
        'tool-result.ts',
        'line-transport.ts',
      ]),
    );
  });

  it('import neither zod nor any of the SDK’s schemas', () => {
    const offenders = modules.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const found = [...(ZOD_IMPORT.test(text) ? ['zod'] : []), ...sdkSchemasIn(text)];
      return found.map((what) => `${relative(MCP, file)}: ${what}`);
    });
    expect(offenders).toEqual([]);
  });
});
