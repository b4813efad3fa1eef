import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '..', '..', 'src');
const FRAMEWORKS = /^(?:ai|ai\/.*|@openai\/agents.*|langchain.*|@langchain\/.*)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Every static `import … from '…'`, `import '…'` and `export … from '…'` of a file, with whether it
 * is for types only. A dynamic `import('…')` runs only when called, and is not one of them.
 */
function importsOf(file: string): { from: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^;]*?from\s+)?'([^']+)';/gms)].map(
    (match) => ({
      from: match[2] as string,
      typeOnly: match[1] !== undefined,
    }),
  );
}

describe('the framework adapters', () => {
  it('import their framework only as types, so nobody installs a framework they do not use', () => {
    const eager = sources(join(src, 'integrations')).flatMap((file) =>
      importsOf(file)
        .filter(({ from, typeOnly }) => FRAMEWORKS.test(from) && !typeOnly)
        .map(({ from }) => `${file}: ${from}`),
    );
    expect(eager).toEqual([]);
  });

  it('are never imported outside their own folder', () => {
    const outside = sources(src)
      .filter((file) => !file.startsWith(join(src, 'integrations')))
      .flatMap((file) =>
        importsOf(file)
          .filter(({ from }) => from.includes('integrations/'))
          .map(() => file),
      );
    expect(outside).toEqual([]);
  });
});
