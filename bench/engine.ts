/**
 * Which copy of the engine a benchmark runs: the TypeScript sources (through tsx, as in development)
 * or the build in `dist/`, which is what users install. Timings should be of the build: the
 * development loader rewrites the code it runs (it names every function it creates, for one), which
 * costs time the published package never pays.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type EngineKind = 'source' | 'dist';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD_MARKER = join(ROOT, 'dist', 'narrowing.js');

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why the build cannot be measured, or undefined when it is there and newer than every source. */
export function staleBuild(): string | undefined {
  if (!existsSync(BUILD_MARKER)) return 'there is no build: run `npm run build`';
  if (statSync(BUILD_MARKER).mtimeMs < newestSource(join(ROOT, 'src'))) {
    return 'the build is older than the sources: run `npm run build`';
  }
  return undefined;
}

/** The build when it is asked for and current; the sources otherwise, with the reason. */
export function chooseEngine(requested: EngineKind): { kind: EngineKind; note?: string } {
  if (requested === 'source') return { kind: 'source' };
  const stale = staleBuild();
  return stale === undefined ? { kind: 'dist' } : { kind: 'source', note: `measuring the sources: ${stale}` };
}

/** A module of the engine, by its path under `src/` without the extension (`core/loop`). */
export function engineModuleUrl(kind: EngineKind, path: string): string {
  return new URL(kind === 'dist' ? `../dist/${path}.js` : `../src/${path}.ts`, import.meta.url).href;
}
