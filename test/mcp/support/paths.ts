import { fileURLToPath } from 'node:url';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const REPO_ROOT = root('.');
export const CLI_ENTRY = root('test/mcp/support/cli-entry.ts');
export const BIN = root('bin/narrowing.js');
export const BUILT_CLI = root('dist/cli/main.js');
export const EVERYTHING_SERVER = root('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = root('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY_SERVER = root('node_modules/@modelcontextprotocol/server-memory/dist/index.js');
export const PROBE_SERVER = root('test/mcp/fixtures/probe-server.mjs');
export const PLAIN_SERVER = root('test/mcp/fixtures/plain-server.mjs');
