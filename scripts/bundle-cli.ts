// Bundles the command line into one script that `bin/narrowing.js` compiles with V8's code cache
// (see src/cli/code-cache.ts): a fresh `narrowing` process then reads one file instead of resolving
// and compiling a tree of modules, and on the next start skips compiling what the last one ran.
// Packages stay outside the bundle, loaded from node_modules as before. The bundle is a classic
// script (only those take a code cache on Node 20), so two things of a module are rewritten in
// each source: `import.meta.url` becomes the address the module has in the build beside the bundle,
// so paths made from it are the same; `import()` of a package or of a computed address goes through
// the loader's own `import()`, since a compiled script has none.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { asciiOnly } from './ascii-only.js';
import { builtTables } from './bundle-tables.js';
import { lazyPackages } from './lazy-packages.js';
import { NODE_SCRIPT_BUNDLE } from './node-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = resolve(root, 'src');

/** A dynamic import whose specifier is not a relative path written out: a package, a `node:` module, a variable. */
const OUTSIDE_IMPORT = /\bimport\(\s*(?=(?:\/\*[^*]*\*\/\s*)?(?:['"`](?![./])|[A-Za-z_$]))/g;

/**
 * Packages compiled into the bundle, and so into its cache: those most commands load. The others
 * (the MCP SDK, the optional peers, what one command alone needs) load from node_modules when used.
 */
const BUNDLED_PACKAGES = new Set(['commander', 'yaml', 'zod', 'unbash', 'proper-lockfile', 'smol-toml', 'picocolors']);

const onlySomePackages: Plugin = {
  name: 'only-some-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const [scope = '', name = ''] = args.path.split('/');
      const packageName = scope.startsWith('@') ? `${scope}/${name}` : scope;
      // Inside a bundled package, what it requires is bundled with it (its own dependencies).
      if (BUNDLED_PACKAGES.has(packageName) || args.importer.includes('/node_modules/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Node's modules a bundled package requires as it loads but uses only in a few commands: commander
 * requires `child_process` (with `net`, `dgram` and the rest it loads) for subcommands run as
 * programs of their own, which narrowing has none of. Each stands in as an object that requires the
 * module on its first property read, so that a `replay` or a `report` never loads it.
 */
const LAZY_BUILTINS: Readonly<Record<string, readonly string[]>> = {
  commander: ['node:child_process'],
};

const lazyBuiltins: Plugin = {
  name: 'lazy-builtins',
  setup(context) {
    context.onResolve({ filter: /^node:/ }, (args) => {
      if (args.kind !== 'require-call' || args.namespace === 'lazy-builtin') return undefined;
      const packageName = Object.keys(LAZY_BUILTINS).find((name) =>
        args.importer.includes(`/node_modules/${name}/`),
      );
      if (packageName === undefined || !LAZY_BUILTINS[packageName]?.includes(args.path)) return undefined;
      return { path: args.path, namespace: 'lazy-builtin' };
    });
    context.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: [
        'let loaded;',
        `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
        'module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const asInTheBuild: Plugin = {
  name: 'as-in-the-build',
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(`${src}/`)) return undefined;
      const built = relative(src, args.path).split('\\').join('/').replace(/\.ts$/, '.js');
      const text = await readFile(args.path, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(built)}, __narrowingDist).href`)
        .replace(OUTSIDE_IMPORT, '__narrowingImport(');
      return { contents, loader: 'ts' };
    });
  },
};

export async function bundleCli(outfile = `${root}dist/cli/narrowing.cjs`): Promise<string> {
  const result = await build({
    entryPoints: [`${root}src/cli/main.ts`],
    outfile,
    ...NODE_SCRIPT_BUNDLE,
    metafile: true,
    plugins: [builtTables, lazyPackages, lazyBuiltins, onlySomePackages, asInTheBuild],
    write: false,
  });
  const stray = Object.keys(result.metafile.inputs).filter(
    (input) =>
      !input.startsWith(relative(root, src)) &&
      !input.includes('node_modules/') &&
      !input.startsWith('lazy-package:') &&
      !input.startsWith('lazy-builtin:'),
  );
  if (stray.length > 0) throw new Error(`the command line's bundle took files from outside src/ and node_modules/: ${stray.join(', ')}`);
  await mkdir(dirname(outfile), { recursive: true });
  // In ASCII, so that a start reads a string of one byte a character (see ascii-only.ts).
  await writeFile(outfile, asciiOnly(result.outputFiles[0]?.text ?? ''));
  await bundleStart(resolve(dirname(outfile), 'start.cjs'));
  return outfile;
}

/**
 * The start-up (src/cli/start.ts) as one CommonJS file beside the bundle, which the bin requires: no
 * ES module loader for a command that needs none. Its `import.meta.url` is its own file's address (the
 * same folder as the modules' `start.js`); the modules it falls back to without a bundle stay outside.
 */
async function bundleStart(outfile: string): Promise<void> {
  await build({
    entryPoints: [`${root}src/cli/start.ts`],
    outfile,
    ...NODE_SCRIPT_BUNDLE,
    define: { 'import.meta.url': '__narrowingStartUrl' },
    banner: { js: "var __narrowingStartUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [mainOutside],
  });
}

const mainOutside: Plugin = {
  name: 'main-outside',
  setup(context) {
    context.onResolve({ filter: /^\.\/main\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli(process.argv[2]);
