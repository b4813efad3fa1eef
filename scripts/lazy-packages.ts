// Packages a bundle sets up on their first use rather than as the script loads: shared by the
// hook's bundle (scripts/bundle-hook.ts) and the command line's (scripts/bundle-cli.ts).
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages a process needs only now and then, and what of each the sources import: a policy file's
 * parser and schemas (`yaml`, `zod`: only with a policy file, or when a learned constraint or a
 * store's state is read), the shell parser (`unbash`: only for a command) and the lock of shared
 * files (`proper-lockfile`, which sets up `graceful-fs` and `signal-exit` with Node's `stream` and
 * `assert` as it loads: only for a write under the lock). Bundled as they are,
 * every process would run their modules' set-up as it loads (a hook process on every tool call, a
 * `replay` without a policy file for nothing); here each is set up on its first use instead (a
 * namespace's first property read, a function's first call).
 */
const LAZY_PACKAGES: Readonly<Record<string, Readonly<Record<string, 'namespace' | 'function'>>>> = {
  zod: { z: 'namespace' },
  yaml: { parseDocument: 'function' },
  unbash: { parse: 'function', forEachChild: 'function' },
  // A CommonJS package imported whole: its default export is the package's own exports.
  'proper-lockfile': { default: 'namespace' },
};

/** What stands for a package of {@link LAZY_PACKAGES}: its exports, each loading the package on first use. */
export function lazyPackageModule(name: string): string {
  const exports = LAZY_PACKAGES[name];
  if (exports === undefined) throw new Error(`${name} is not loaded on demand`);
  const lines = [
    'let loaded;',
    // A `require` in the bundle: esbuild sets the package up when it is first called, not at load.
    `const load = () => (loaded ??= require(${JSON.stringify(name)}));`,
  ];
  for (const [exported, kind] of Object.entries(exports)) {
    if (exported === 'default') {
      lines.push(
        'export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
      );
      continue;
    }
    lines.push(
      kind === 'function'
        ? `export function ${exported}(...values) { return load().${exported}(...values); }`
        : `export const ${exported} = new Proxy({}, { get: (_, key) => load().${exported}[key], has: (_, key) => key in load().${exported} });`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const lazyPackages: Plugin = {
  name: 'narrowing-lazy-packages',
  setup(build) {
    build.onResolve({ filter: /^(?:zod|yaml|unbash|proper-lockfile)$/ }, (args) => {
      // The stand-in's own `require` and the packages' imports of each other take the package itself.
      if (args.namespace === 'lazy-package' || args.importer.includes('/node_modules/')) return undefined;
      return { path: args.path, namespace: 'lazy-package' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
      contents: lazyPackageModule(args.path),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

