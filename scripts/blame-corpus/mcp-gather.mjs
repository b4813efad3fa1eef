/**
 * The MCP half of the corpus: the @modelcontextprotocol reference servers from narrowing's
 * node_modules, driven through the MCP SDK client, with the error text an agent sees (the text of
 * an `isError` result, or the message of the error the client throws). Run by gather.py, which
 * passes its fixture directories; prints JSONL records to stdout.
 *
 *     node mcp-gather.mjs ROOT   (ROOT/w a workspace, ROOT/full a full tmpfs, ROOT/ro a read-only one,
 *                                 ROOT/locked root-owned files that `nobody` may not write)
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = process.argv[2];
const modules = new URL('../../node_modules/@modelcontextprotocol/', import.meta.url).pathname;
const records = [];

function server(name, args = [], options = {}) {
  const script = join(modules, name, 'dist/index.js');
  const command = options.user ? 'runuser' : process.execPath;
  const argv = options.user
    ? ['-u', options.user, '--', process.execPath, script, ...args]
    : [script, ...args];
  return { command, args: argv, env: { ...process.env, ...(options.env ?? {}) }, label: name };
}

async function open(spec) {
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'blame-corpus', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Arguments as stored: strings of kilobytes (a disk-filling write) cut to a note of their size. */
function abbreviated(value) {
  if (typeof value === 'string') {
    return value.length > 200 ? `${value.slice(0, 40)}… (${value.length} characters)` : value;
  }
  if (Array.isArray(value)) return value.map(abbreviated);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, abbreviated(item)]));
  }
  return value;
}

function record(tool, text, blame, deterministic, category, source, args) {
  records.push({
    text,
    tool,
    ...(args ? { args: abbreviated(args) } : {}),
    blame,
    deterministic,
    category,
    source: `local:${source}`,
  });
}

/** One tools/call; the text the agent sees when it fails. */
async function call(client, tool, args, timeout) {
  try {
    const result = await client.callTool(
      { name: tool, arguments: args },
      undefined,
      timeout ? { timeout } : undefined,
    );
    if (result.isError) return result.content.map((item) => item.text ?? '').join('\n');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function cases(spec, list) {
  const { client } = await open(spec);
  for (const [tool, args, blame, deterministic, category, timeout] of list) {
    const text = await call(client, tool, args, timeout);
    const source = `MCP ${spec.label} tools/call ${tool} ${JSON.stringify(abbreviated(args))}`;
    if (text === undefined || text === '') {
      process.stderr.write(`no failure: ${source}\n`);
      continue;
    }
    record(tool, text, blame, deterministic, category, source, args);
  }
  await client.close();
}

const A = 'agent_failure';
const H = 'harness_fault';

const w = mkdtempSync(join(root, 'mcp-'));
mkdirSync(join(w, 'sub'));
writeFileSync(join(w, 'a.txt'), 'hello world\n');
writeFileSync(join(w, 'notes.md'), '# notes\n\n- first\n- first\n');
writeFileSync(join(w, 'secret.env'), 'TOKEN=x\n');
chmodSync(w, 0o755);
chmodSync(join(w, 'secret.env'), 0o600);

await cases(server('server-filesystem', [w]), [
  ['read_text_file', { path: join(w, 'nothere.txt') }, A, true, 'not-found-file'],
  ['read_text_file', { path: 'docs/readme.md' }, A, true, 'not-found-file'],
  ['read_text_file', { path: '/etc/hostname' }, A, true, 'path-outside-sandbox'],
  ['read_text_file', { path: join(w, '..', 'other', 'x.txt') }, A, true, 'path-outside-sandbox'],
  ['read_text_file', { path: join(w, 'a.txt'), head: 1, tail: 1 }, A, true, 'validation'],
  ['read_text_file', {}, A, true, 'validation'],
  ['read_text_file', { path: 42 }, A, true, 'validation'],
  ['read_file', { path: join(w, 'missing.json') }, A, true, 'not-found-file'],
  ['read_media_file', { path: join(w, 'logo.png') }, A, true, 'not-found-file'],
  ['read_media_file', { path: '/usr/share/pixmaps/debian-logo.png' }, A, true, 'path-outside-sandbox'],
  ['write_file', { path: join(w, 'nodir', 'deep', 'x.txt'), content: 'x' }, A, true, 'not-found-file'],
  ['write_file', { path: '/tmp/outside.txt', content: 'x' }, A, true, 'path-outside-sandbox'],
  ['write_file', { path: join(w, 'sub'), content: 'x' }, A, true, 'wrong-path-kind'],
  ['write_file', { path: join(w, 'b.txt') }, A, true, 'validation'],
  [
    'edit_file',
    { path: join(w, 'a.txt'), edits: [{ oldText: 'farewell, world', newText: 'hi' }] },
    A,
    true,
    'edit-no-match',
  ],
  [
    'edit_file',
    { path: join(w, 'nothere.md'), edits: [{ oldText: 'a', newText: 'b' }] },
    A,
    true,
    'not-found-file',
  ],
  ['edit_file', { path: join(w, 'a.txt'), edits: [{ old: 'hello', new: 'hi' }] }, A, true, 'validation'],
  [
    'edit_file',
    { path: '/etc/hosts', edits: [{ oldText: 'localhost', newText: 'x' }] },
    A,
    true,
    'path-outside-sandbox',
  ],
  ['create_directory', { path: '/var/tmp/outside-dir' }, A, true, 'path-outside-sandbox'],
  ['create_directory', { path: join(w, 'a.txt', 'sub') }, A, true, 'wrong-path-kind'],
  ['list_directory', { path: join(w, 'nothere') }, A, true, 'not-found-file'],
  ['list_directory', { path: join(w, 'a.txt') }, A, true, 'wrong-path-kind'],
  ['list_directory', { path: '/etc' }, A, true, 'path-outside-sandbox'],
  ['list_directory_with_sizes', { path: join(w, 'build') }, A, true, 'not-found-file'],
  ['directory_tree', { path: join(w, 'src') }, A, true, 'not-found-file'],
  ['move_file', { source: join(w, 'nothere.txt'), destination: join(w, 'b.txt') }, A, true, 'not-found-file'],
  ['move_file', { source: join(w, 'a.txt'), destination: join(w, 'notes.md') }, A, true, 'conflict-exists'],
  ['move_file', { source: join(w, 'a.txt'), destination: '/tmp/a.txt' }, A, true, 'path-outside-sandbox'],
  ['search_files', { path: '/usr', pattern: '*.so' }, A, true, 'path-outside-sandbox'],
  ['search_files', { path: join(w, 'nothere'), pattern: '*.ts' }, A, true, 'not-found-file'],
  ['get_file_info', { path: join(w, 'config.yaml') }, A, true, 'not-found-file'],
  ['delete_file', { path: join(w, 'a.txt') }, A, true, 'unknown-tool'],
  ['read_text_files', { paths: [join(w, 'a.txt')] }, A, true, 'unknown-tool'],
]);

// The same server run as a user who may not read or write what root owns: permissions of the session.
await cases(server('server-filesystem', [w], { user: 'nobody' }), [
  ['read_text_file', { path: join(w, 'secret.env') }, H, true, 'permission'],
  ['write_file', { path: join(w, 'new.txt'), content: 'x' }, H, true, 'permission'],
  ['create_directory', { path: join(w, 'out') }, H, true, 'permission'],
  [
    'edit_file',
    { path: join(w, 'a.txt'), edits: [{ oldText: 'hello', newText: 'hi' }] },
    H,
    true,
    'permission',
  ],
  ['move_file', { source: join(w, 'a.txt'), destination: join(w, 'c.txt') }, H, true, 'permission'],
]);

// A read-only mount and a full disk under the allowed directory: host resources.
await cases(server('server-filesystem', [join(root, 'ro')]), [
  ['write_file', { path: join(root, 'ro', 'out.txt'), content: 'x' }, H, true, 'read-only-fs'],
  [
    'edit_file',
    { path: join(root, 'ro', 'notes.txt'), edits: [{ oldText: 'x', newText: 'y' }] },
    H,
    true,
    'read-only-fs',
  ],
]);
await cases(server('server-filesystem', [join(root, 'full')]), [
  [
    'write_file',
    { path: join(root, 'full', 'big.txt'), content: 'x'.repeat(2_000_000) },
    H,
    true,
    'disk-full',
  ],
]);

// The memory server: unknown entities are the call's; a memory file it cannot write is the host's.
const memoryDir = mkdtempSync(join(root, 'memory-'));
await cases(server('server-memory', [], { env: { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') } }), [
  [
    'add_observations',
    { observations: [{ entityName: 'Project Apollo', contents: ['launched'] }] },
    A,
    true,
    'not-found-id',
  ],
  ['create_entities', { entities: [{ name: 'x' }] }, A, true, 'validation'],
  ['create_entities', { entities: 'Project Apollo' }, A, true, 'validation'],
  ['delete_observations', { deletions: [{ entityName: 'Ghost', observations: 'x' }] }, A, true, 'validation'],
  ['open_nodes', {}, A, true, 'validation'],
  ['search_graph', { query: 'apollo' }, A, true, 'unknown-tool'],
]);
await cases(server('server-memory', [], { env: { MEMORY_FILE_PATH: join(root, 'ro', 'memory.jsonl') } }), [
  [
    'create_entities',
    { entities: [{ name: 'Apollo', entityType: 'project', observations: [] }] },
    H,
    true,
    'read-only-fs',
  ],
]);
await cases(server('server-memory', [], { env: { MEMORY_FILE_PATH: join(root, 'full', 'memory.jsonl') } }), [
  [
    'create_entities',
    { entities: [{ name: 'Apollo'.repeat(20000), entityType: 'project', observations: [] }] },
    H,
    true,
    'disk-full',
  ],
]);

// The everything server: bad arguments, unknown tools, a request that outlives its timeout, and
// a tool that fetches a URL (gzip-file-as-resource) against hosts that fail in every way.
const closedPort = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const everything = server('server-everything');
await cases(everything, [
  ['get-sum', { a: 3, b: 'four' }, A, true, 'validation'],
  ['get-sum', { a: 1 }, A, true, 'validation'],
  ['echo', {}, A, true, 'validation'],
  ['get-resource-reference', { resourceType: 'Video', resourceId: 1 }, A, true, 'validation'],
  ['get-resource-reference', { resourceType: 'Text', resourceId: 99999 }, A, true, 'not-found-id'],
  ['get-annotated-message', { messageType: 'shout' }, A, true, 'validation'],
  ['add', { a: 1, b: 2 }, A, true, 'unknown-tool'],
  ['trigger-long-running-operation', { duration: 5, steps: 5 }, H, false, 'timeout-mcp', 1000],
  [
    'gzip-file-as-resource',
    { name: 'a.gz', data: 'https://nonexistent.invalid/data.txt' },
    H,
    false,
    'net-dns',
  ],
  [
    'gzip-file-as-resource',
    { name: 'b.gz', data: `http://127.0.0.1:${closedPort}/data.txt` },
    H,
    false,
    'net-refused',
  ],
  ['gzip-file-as-resource', { name: 'c.gz', data: 'not a url' }, A, true, 'validation'],
  ['gzip-file-as-resource', { name: 'd.gz', data: 'ftp://example.com/data.txt' }, A, true, 'validation'],
]);

// Servers that are not there, exit at once, or die during a call: the harness's.
async function transportFailure(tool, spec, category, source, during) {
  let text;
  try {
    const { client, transport } = await open(spec);
    if (during) {
      const pending = call(client, tool, { duration: 10, steps: 5 });
      setTimeout(() => transport._process?.kill('SIGKILL'), 300);
      text = await pending;
    } else {
      await client.close();
      text = await call(client, tool, {});
    }
  } catch (error) {
    text = error instanceof Error ? error.message : String(error);
  }
  if (text) record(tool, text, H, false, category, source);
}
await transportFailure(
  'mcp__docs__search',
  { command: 'mcp-server-docs', args: ['--stdio'], env: process.env, label: 'mcp-server-docs' },
  'mcp-server-missing',
  'MCP client connecting to `mcp-server-docs --stdio` (not installed)',
);
await transportFailure(
  'query',
  { command: process.execPath, args: ['-e', 'process.exit(1)'], env: process.env, label: 'exits' },
  'mcp-disconnected',
  'MCP client connecting to a server process that exits at once',
);
await transportFailure(
  'trigger-long-running-operation',
  everything,
  'mcp-disconnected',
  'MCP server-everything killed (SIGKILL) during tools/call trigger-long-running-operation',
  true,
);
await transportFailure(
  'get-sum',
  everything,
  'mcp-disconnected',
  'MCP tools/call get-sum after the client closed',
);

for (const rec of records) process.stdout.write(`${JSON.stringify(rec)}\n`);
