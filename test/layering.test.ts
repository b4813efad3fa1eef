/**
 * The architecture as a table: which layer of `src/` may import which. Imports point inward only —
 * the engine at the centre, then domain knowledge, then I/O, then the guard seam, then the faces
 * that people use, then the command line — and no module imports itself back through a cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Every layer, and the layers it may import besides itself. A layer missing here fails the test. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  core: [],
  adapters: ['core'],
  node: ['core'],
  'policy-file': ['core'],
  stores: ['core', 'node'],
  audit: ['core', 'node'],
  trace: ['core', 'adapters'],
  install: ['core', 'adapters', 'node'],
  telemetry: ['core'],
  guard: ['core', 'adapters', 'node', 'policy-file', 'stores', 'audit', 'telemetry'],
  replay: ['core', 'adapters', 'guard', 'trace'],
  report: ['core', 'node', 'audit'],
  mcp: ['core', 'adapters', 'guard', 'telemetry'],
  demo: ['core', 'adapters', 'node', 'stores', 'audit', 'guard'],
  compat: ['core', 'adapters', 'node', 'stores', 'audit', 'guard', 'policy-file', '.'],
  hooks: ['core', 'adapters', 'node', 'stores', 'audit', 'guard', 'policy-file', 'trace'],
  integrations: ['core', 'adapters', 'guard'],
  agent: ['core', 'adapters', 'node', 'guard', 'mcp', 'telemetry'],
  cli: [
    'core',
    'adapters',
    'node',
    'policy-file',
    'stores',
    'audit',
    'trace',
    'install',
    'guard',
    'replay',
    'report',
    'mcp',
    'demo',
    'hooks',
    'agent',
    'compat',
    'telemetry',
  ],
  /** `index.ts` and `narrowing.ts`: the package's root entry and the Node loop. */
  '.': ['core', 'adapters', 'audit', 'guard', 'policy-file'],
};

/** Static imports, re-exports and dynamic `import('…')` of relative modules. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? '.' : (parts[0] as string);
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)].map((match) =>
    resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')),
  );
}

type ImportGraph = ReadonlyMap<string, readonly string[]>;

const files = sourceFiles(SRC);
const graph: ImportGraph = new Map(
  files.map((file) => [file, importsOf(file).filter((target) => target.startsWith(SRC))]),
);

/** Every import the table does not allow, as `file imports target (from → to)`. */
function violations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (to !== from && !ALLOWED[from]?.includes(to)) {
        found.push(`${relative(SRC, file)} imports ${relative(SRC, target)} (${from} → ${to})`);
      }
    }
  }
  return found;
}

/** The modules on some import cycle (Tarjan's strongly connected components of size > 1). */
function cycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(relative(SRC, member));
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('layering', () => {
  it('places every folder of src in the table', () => {
    const unknown = [...new Set(files.map(layerOf))].filter((layer) => !(layer in ALLOWED));
    expect(unknown).toEqual([]);
  });

  it('has every import point inward, as the table allows', () => {
    expect(violations(graph)).toEqual([]);
  });

  it('reports an import from the engine out to the guard seam', () => {
    const outward = new Map([[join(SRC, 'core', 'loop.ts'), [join(SRC, 'guard', 'open.ts')]]]);
    expect(violations(outward)).toEqual([
      `${join('core', 'loop.ts')} imports ${join('guard', 'open.ts')} (core → guard)`,
    ]);
  });

  it('keeps the engine free of Node APIs and of packages', () => {
    const outside = files
      .filter((file) => layerOf(file) === 'core')
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'".][^'"]*)['"]/g)].map(
          (match) => `${relative(SRC, file)} imports ${match[1]}`,
        ),
      );
    expect(outside).toEqual([]);
  });

  it('has no import cycles between modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('reports two modules that import each other', () => {
    const a = join(SRC, 'guard', 'a.ts');
    const b = join(SRC, 'guard', 'b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[join('guard', 'a.ts'), join('guard', 'b.ts')]]);
  });
});
