/**
 * Tool calls for the performance benchmark, shaped like a coding agent's: file reads, test and build
 * commands, small edits, and edits that carry whole functions (1–4 KB) in `old_string`/`new_string`.
 * Every call is distinct (an index runs through paths and names), as in a real run, so that no loop
 * detector fires and what is measured is the cost of the calls the guard lets through.
 */
import { toolCallToOutcome, toolCallToProposal } from '../src/adapters/tool-call/index.js';
import type { Outcome, Proposal } from '../src/core/types.js';

export type Workload = 'typical' | 'edit-4kb';
export const WORKLOADS: readonly Workload[] = ['typical', 'edit-4kb'];

export interface PreparedCall {
  readonly proposal: Proposal;
  readonly outcome: Outcome;
}

/** A tool call and its MCP result as an agent loop has them in hand, before any conversion. */
export interface RawCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly result: { readonly content: readonly { type: 'text'; text: string }[]; readonly isError?: true };
  readonly failing: boolean;
}

/**
 * A call and its result as they reach the guard: decoded from JSON, as tool calls and results are
 * when they come over MCP or from a model's response. Strings built here from template pieces would
 * otherwise reach the guard in pieces, and the guard would be timed joining them.
 */
function raw(tool: string, args: Record<string, unknown>, text: string, isError: boolean): RawCall {
  const decoded = JSON.parse(
    JSON.stringify({ args, result: { content: [{ type: 'text', text }], ...(isError && { isError }) } }),
  );
  return { tool, args: decoded.args, result: decoded.result, failing: isError };
}

/** The call converted ahead of time, for seeding a guard with what it learns. */
function prepared(tool: string, args: Record<string, unknown>, text: string, isError: boolean): PreparedCall {
  const call = raw(tool, args, text, isError);
  const proposal = toolCallToProposal(tool, call.args);
  const outcome = toolCallToOutcome(tool, call.args, call.result);
  return { proposal, outcome: { ...outcome, proposal } };
}

function success(tool: string, args: Record<string, unknown>, text: string): PreparedCall {
  return prepared(tool, args, text, false);
}

function failure(tool: string, args: Record<string, unknown>, text: string): PreparedCall {
  return prepared(tool, args, text, true);
}

const SOURCE_LINES = [
  "import { describe, expect, it } from 'vitest';",
  "import { parseOrder } from '../src/orders/parse.js';",
  '',
  "describe('parseOrder', () => {",
  "  it('reads the total', () => {",
  '    expect(parseOrder(\'{"total": 12.5}\').total).toBe(12.5);',
  '  });',
  '});',
];

/** Names from an index, as short as real ones: `module-5yc1s`, not `module-10000300`. */
function name(index: number): string {
  return index.toString(36);
}

/** About 400 bytes of a source file, different for every index. */
function fileText(index: number): string {
  return `// module ${name(index)}\n${SOURCE_LINES.join('\n')}\n`;
}

/** A function of roughly `bytes` bytes, different for every index. */
function functionText(index: number, bytes: number): string {
  const lines = [`export function handle${name(index)}(request: Request, context: Context): Response {`];
  let size = lines[0]?.length ?? 0;
  for (let line = 0; size < bytes; line++) {
    const text = `  const value${line} = context.lookup('key-${line}') ?? defaults[${line % 17}];`;
    lines.push(text);
    size += text.length + 1;
  }
  lines.push('  return new Response(JSON.stringify({ ok: true }));', '}');
  return lines.join('\n');
}

const READ_ONLY_COMMANDS = [
  (index: number) => `npm test -- test/orders/module-${name(index)}.test.ts`,
  (index: number) => `git diff --stat src/orders/module-${name(index)}.ts`,
  (index: number) => `ls -la src/orders/module-${name(index)}`,
];
const CHANGING_COMMANDS = [
  (index: number) => `npx tsc --noEmit -p packages/orders-${name(index)}`,
  (index: number) => `npm run build --workspace=packages/orders-${name(index)}`,
];

function pickCommand(commands: readonly ((index: number) => string)[], index: number): string {
  return (commands[index % commands.length] as (index: number) => string)(index);
}

export type CallKind = 'read' | 'edit' | 'read-only command' | 'command with unknown effects';
export const CALL_KINDS: readonly CallKind[] = [
  'read',
  'edit',
  'read-only command',
  'command with unknown effects',
];

/** Which kind of call `typicalCall(index)` makes. */
export function typicalKind(index: number): CallKind {
  const slot = index % 8;
  if (slot === 2 || slot === 5) return 'edit';
  if (slot === 3) return 'read-only command';
  if (slot === 6) return 'command with unknown effects';
  return 'read';
}

/**
 * The typical mix, under 200 bytes of arguments each: half reads, a quarter small edits, a quarter
 * commands (one in eight calls runs a command whose effects are unknown, such as a build).
 */
export function typicalCall(index: number): PreparedCall {
  const slot = index % 8;
  const module = `src/orders/module-${name(index)}.ts`;
  switch (slot) {
    case 0:
    case 1:
    case 4:
    case 7:
      return success('read_file', { path: module }, fileText(index));
    case 2:
    case 5:
      return success(
        'edit_file',
        {
          path: module,
          old_string: `const limit = ${index % 97};`,
          new_string: `const limit = ${(index % 97) + 1};`,
        },
        `Successfully edited ${module}`,
      );
    case 3:
      return success(
        'bash',
        { command: pickCommand(READ_ONLY_COMMANDS, index) },
        ' ✓ test/orders/parse.test.ts (4 tests) 12ms\n Test Files  1 passed (1)',
      );
    default:
      return success('bash', { command: pickCommand(CHANGING_COMMANDS, index) }, '');
  }
}

/** An edit replacing a whole function: `old_string` and `new_string` of 1 to 4 KB. */
export function largeEditCall(index: number): PreparedCall {
  const bytes = 1024 * (1 + (index % 4));
  const path = `src/handlers/handler-${name(index)}.ts`;
  return success(
    'edit_file',
    { path, old_string: functionText(index, bytes), new_string: functionText(index + 1, bytes) },
    `Successfully edited ${path}`,
  );
}

export function workloadCall(workload: Workload, index: number): PreparedCall {
  return workload === 'typical' ? typicalCall(index) : largeEditCall(index);
}

/**
 * A failure that teaches the guard something new each time: a file that does not exist (a call and a
 * target constraint), an edit whose text is not in the file, and now and then a script with a syntax
 * error (a command constraint, which lasts for the session).
 */
export function failingCall(index: number): PreparedCall {
  if (index % 100 === 99) {
    return failure(
      'bash',
      { command: `node scripts/job-${name(index)}.js` },
      `/srv/app/scripts/job-${name(index)}.js:3\n\nSyntaxError: Unexpected end of input`,
    );
  }
  if (index % 2 === 0) {
    const path = `docs/notes-${name(index)}.md`;
    return failure('read_file', { path }, `ENOENT: no such file or directory, open '${path}'`);
  }
  const path = `src/legacy/module-${name(index)}.ts`;
  return failure(
    'edit_file',
    { path, old_string: `const retries = ${index % 89};`, new_string: 'const retries = 3;' },
    `Error: Could not find exact match for edit:\nconst retries = ${index % 89};`,
  );
}

/** About 20 KB of a failing test run, as a test runner prints it. */
function failingTestOutput(index: number): string {
  const lines = [` RUN  v3.2.4 /srv/app`, ''];
  for (let test = 0, size = 0; size < 19_000; test++) {
    const group = [
      ` ✓ test/orders/module-${name(index + test)}.test.ts > parseOrder > reads the total ${test} 3ms`,
      ` × test/orders/module-${name(index + test)}.test.ts > parseOrder > rejects a negative total ${test} 5ms`,
      `   → expected -${test}.5 to be greater than or equal to 0`,
    ];
    lines.push(...group);
    size += group.join('\n').length + 1;
  }
  lines.push(
    '',
    ` Test Files  ${name(index)} failed | 12 passed (13)`,
    '      Tests  41 failed | 230 passed (271)',
    'Process exited with exit code 1',
  );
  return lines.join('\n');
}

/**
 * A failure as agents meet them, each distinct: a file that does not exist, an edit whose text is not
 * in the file, a type error, a test run that fails with about 20 KB of output (one failure in four), a
 * timeout now and then.
 */
export function realisticFailure(index: number): RawCall {
  const module = `src/orders/module-${name(index)}.ts`;
  switch (Math.floor(index / 10) % 4) {
    case 0:
      return raw(
        'read_file',
        { path: module },
        `ENOENT: no such file or directory, open '/srv/app/${module}'`,
        true,
      );
    case 1:
      return raw(
        'edit_file',
        { path: module, old_string: `const retries = ${index % 89};`, new_string: 'const retries = 3;' },
        `Error: Could not find exact match for edit:\nconst retries = ${index % 89};`,
        true,
      );
    case 2:
      return raw(
        'bash',
        { command: `npm test -- test/orders/module-${name(index)}.test.ts` },
        failingTestOutput(index),
        true,
      );
    default:
      return Math.floor(index / 40) % 2 === 1
        ? raw(
            'bash',
            { command: `curl -s https://api.example.com/orders/${name(index)}` },
            'Error: request timed out after 30000 ms (ETIMEDOUT)',
            true,
          )
        : raw(
            'bash',
            { command: `npx tsc --noEmit -p packages/orders-${name(index)}` },
            `${module}(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\nProcess exited with exit code 2`,
            true,
          );
  }
}

function rawOf(call: PreparedCall): RawCall {
  const outcome = call.outcome;
  return raw(call.proposal.tool, { ...call.proposal.args }, outcome.content ?? '', outcome.success === false);
}

/** The call users time: one in ten fails, as in real agent runs; the rest are the workload's. */
export function workloadRawCall(workload: Workload, index: number): RawCall {
  if (index % 10 === 9) {
    if (workload === 'typical') return realisticFailure(index);
    const path = `src/handlers/handler-${name(index)}.ts`;
    return raw(
      'edit_file',
      {
        path,
        old_string: functionText(index, 1024 * (1 + (index % 4))),
        new_string: functionText(index + 1, 1024),
      },
      `Error: Could not find exact match for edit in ${path}`,
      true,
    );
  }
  return rawOf(workloadCall(workload, index));
}
