// Bundles the benchmarks that run without a checkout into the build: their own code is bundled,
// and what they import from `src/` stays an import of the build beside them, so the package holds
// one engine, not two.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = resolve(root, 'src');

const sourcesFromTheBuild: Plugin = {
  name: 'sources-from-the-build',
  setup(context) {
    context.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!target.startsWith(`${src}/`)) return undefined;
      return { path: `../${relative(src, target).split('\\').join('/')}`, external: true };
    });
  },
};

export async function bundleBench(outfile = `${root}dist/bench/packaged.js`): Promise<string> {
  await build({
    entryPoints: [`${root}bench/packaged.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [sourcesFromTheBuild],
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleBench(process.argv[2]);
