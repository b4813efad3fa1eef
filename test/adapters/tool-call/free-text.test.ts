/**
 * Words the model writes beside a call (`description`, `explanation`, `justification`) do not change
 * what the call does when its other arguments say what it acts on: a command, a file, a place in a
 * file, a search or an edit's text. A tool that declares no free text is judged the same way.
 */
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { normalizeArguments } from '../../../src/adapters/tool-call/normal-form.js';
import { NarrowingLoop } from '../../../src/index.js';

const WORDS = ['Show the file', 'Show it again', 'Look once more', 'Read it to check', 'One more look'];

/** Verdicts of the same call, each time with new words beside it, answered the same way each time. */
function verdictsOf(
  tool: string,
  args: Record<string, unknown>,
  answer: string,
  failed: boolean,
  field = 'description',
  inputSchema?: unknown,
) {
  const loop = new NarrowingLoop({});
  const verdicts: string[] = [];
  for (const words of WORDS) {
    const call = { ...args, [field]: words };
    verdicts.push(
      loop.checkProposal({ tool, args: call, ...(inputSchema !== undefined && { inputSchema }) }).verdict,
    );
    const result = { content: [{ type: 'text', text: answer }], ...(failed && { isError: true }) };
    loop.recordOutcome(
      toolCallToOutcome(tool, call, result, inputSchema !== undefined ? { inputSchema } : {}),
    );
  }
  return verdicts;
}

describe('free text beside a call', () => {
  it('blocks a command that keeps printing the same file, asked with a new description each time', () => {
    const verdicts = verdictsOf(
      'bash',
      { command: 'cat crackme.py' },
      'secret = "A:4@r%uL"\nprint(secret)\n',
      false,
    );
    expect(verdicts.at(-1)).toBe('block');
  });

  it('blocks an edit of the open file refused the same way, proposed with a new explanation each time', () => {
    const refused =
      'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit command.\n\nERRORS:\n- E999 IndentationError: unexpected indent';
    const verdicts = verdictsOf(
      'edit',
      { lines: '31:31', replacement: '    import os' },
      refused,
      true,
      'explanation',
    );
    expect(verdicts).toContain('block');
  });

  it('leaves out the words beside a command, a path, a place in a file and an edit’s text', () => {
    expect(normalizeArguments({ command: 'ls', description: 'List files' })).toEqual({ command: 'ls' });
    expect(normalizeArguments({ file_path: 'a.py', justification: 'needed' })).toEqual({ file_path: 'a.py' });
    expect(normalizeArguments({ line_number: 12, description: 'jump' })).toEqual({ line_number: 12 });
    expect(normalizeArguments({ query: 'def login', explanation: 'find it' })).toEqual({
      query: 'def login',
    });
    expect(normalizeArguments({ lines: '3:4', replacement: 'x = 1', description: 'fix' })).toEqual({
      lines: '3:4',
      replacement: 'x = 1',
    });
  });

  it('blocks a booking change refused the same way, proposed with a new explanation each time', () => {
    const verdicts = verdictsOf(
      'update_reservation_flights',
      {
        reservation_id: 'XEWRD9',
        cabin: 'economy',
        flights: [{ flight_number: 'HAT030', date: '2024-05-13' }],
        payment_id: 'gift_card_4643416',
      },
      'Error: flight HAT030 not available on date 2024-05-13',
      true,
      'explanation',
    );
    expect(verdicts[1]).toBe('block');
  });

  it('blocks an answer submitted again with a new justification, as one submitted again unchanged', () => {
    const verdicts = verdictsOf(
      'submit',
      { answer: 'picoCTF{n33d_a_lArg3r_e_6b6d313e}' },
      'Submitted flag is incorrect. Keep trying!',
      false,
      'justification',
    );
    expect(verdicts[1]).toBe('block');
  });

  it('leaves out the words beside a patch, whichever tool applies it', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/server.ts\n@@\n-const port = 3000;\n+const port = Number(process.env.PORT ?? 3000);\n*** End Patch';
    expect(normalizeArguments({ patch, description: 'Read the port from the environment' })).toEqual({
      patch,
    });
    expect(normalizeArguments({ input: patch, description: 'Try the patch again' })).toEqual({
      input: patch,
    });
  });

  it('blocks a relayed MCP call refused the same way, proposed with a new description each time', () => {
    const relayed = {
      server_name: 'github',
      tool_name: 'create_issue',
      arguments: { owner: 'acme', repo: 'shop', title: 'Checkout fails', body: 'Steps: add to cart, pay' },
    };
    const verdicts = verdictsOf(
      'use_mcp_tool',
      relayed,
      'Error executing MCP tool: MCP error -32603: Not Found: Resource not found',
      true,
    );
    expect(verdicts[1]).toBe('block');
  });

  it('keeps a description beside a tool’s name that is not a relayed call, as a tool being registered', () => {
    const args = { tool_name: 'lookup_order', description: 'Finds an order by its number' };
    expect(normalizeArguments(args)).toEqual(args);
  });

  it('keeps a description beside text values that do not say what it holds, as a task made in a project for someone', () => {
    const args = {
      project: 'ops',
      assignee: 'dana',
      description: 'Renew the TLS certificate of the status page',
    };
    expect(normalizeArguments(args)).toEqual(args);
  });

  it('keeps a description beside one value alone, as an issue’s new text beside its id', () => {
    const args = { issue_id: 'OPS-112', description: 'The printer on floor 2 is offline again' };
    expect(normalizeArguments(args)).toEqual(args);
  });

  it('leaves out an explanation beside any other argument, and keeps one that is all the call says', () => {
    expect(normalizeArguments({ reservation_id: 'XEWRD9', explanation: 'retry' })).toEqual({
      reservation_id: 'XEWRD9',
    });
    expect(normalizeArguments({ explanation: 'Checking the lints' })).toEqual({
      explanation: 'Checking the lints',
    });
  });

  it('keeps a description beside arguments that name nothing the call acts on: it may be what the call says', () => {
    const args = { for: 'app/api/invoices/[id]/route.ts', description: '• Read lints for 2 files' };
    expect(normalizeArguments(args)).toEqual(args);
  });

  it('keeps a description that is a record’s data, as in a call that creates a ticket', () => {
    const args = {
      project: 'OPS',
      title: 'Printer offline',
      description: 'The printer on floor 2 is offline',
    };
    expect(normalizeArguments(args)).toEqual(args);
  });

  it('blocks a flight search refused the same way, whose tool takes no description, proposed with a new one each time', () => {
    const schema = {
      type: 'object',
      properties: { origin: { type: 'string' }, destination: { type: 'string' }, date: { type: 'string' } },
      required: ['origin', 'destination', 'date'],
    };
    const verdicts = verdictsOf(
      'search_direct_flight',
      { origin: 'JFK', destination: 'SEA', date: '2024-05-20' },
      'Error: no flights found on date 2024-05-20',
      true,
      'description',
      schema,
    );
    expect(verdicts).toContain('block');
  });

  it('keeps a description that the tool takes, as the body of an issue an MCP server creates', () => {
    const schema = {
      type: 'object',
      properties: { project: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' } },
    };
    const verdicts = verdictsOf(
      'create_issue',
      { project: 'OPS', title: 'Printer offline' },
      'Error: project OPS is archived',
      true,
      'description',
      schema,
    );
    expect(verdicts).not.toContain('block');
  });
});
