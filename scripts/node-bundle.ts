/**
 * How the product's own scripts are bundled for Node: one CommonJS file, whitespace and syntax
 * minified, names kept (a stack trace still says which function failed), no legal comments. The
 * command line's bundle, its start-up and the cold-start bench's engine all start from these.
 */
import type { BuildOptions } from 'esbuild';

export const NODE_SCRIPT_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
} as const satisfies BuildOptions;
