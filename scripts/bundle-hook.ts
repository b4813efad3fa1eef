// Bundles the hook: a hook process starts on every tool call, and one file holding only what the
// hook needs loads faster than a tree of modules. What only the helper (or a hook without it) needs,
// the guard itself, goes into chunks loaded on demand.
import { basename, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function bundleHook(outfile = `${root}dist/hooks/hook.js`): Promise<string> {
  await build({
    entryPoints: [`${root}src/hooks/bin.ts`],
    outdir: dirname(outfile),
    entryNames: basename(outfile, extname(outfile)),
    chunkNames: 'hook-[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies (proper-lockfile) call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __narrowingRequire } from 'node:module'; const require = __narrowingRequire(import.meta.url);",
    },
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleHook(process.argv[2]);
