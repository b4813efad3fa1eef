import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import type { Outcome, Proposal } from '../../../src/core/types.js';
import { adapter } from './helpers.js';

const toolNames = fc.oneof(
  fc.string(),
  fc.constantFrom('Read', 'Bash', 'edit_file', 'mcp__x__get_job_status', 'web_fetch', 'mcp_a_b_c', 'a.b/c'),
);
const args = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());
const texts = fc.oneof(
  fc.string(),
  fc.jsonValue().map((value) => JSON.stringify(value) ?? ''),
);

describe('the tool-call adapter never throws', () => {
  it('describes any call', () => {
    fc.assert(
      fc.property(toolNames, args, fc.jsonValue(), (tool, input, schema) => {
        const facts = adapter.describeCall(toolCallToProposal(tool, input, { inputSchema: schema }));
        expect(adapter.actionClasses).toContain(facts.actionClass);
        expect(facts.targets.length).toBeLessThanOrEqual(16);
        expect(facts.service === undefined || facts.service.length <= 200).toBe(true);
      }),
    );
  });

  it('describes any outcome', () => {
    fc.assert(
      fc.property(toolNames, args, texts, fc.boolean(), (tool, input, text, isError) => {
        const outcome = toolCallToOutcome(tool, input, {
          content: [{ type: 'text', text }],
          isError,
        });
        const facts = adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
        if (isError) expect(adapter.signatures).toContain(facts?.signature);
        adapter.isNonAdvancing(outcome);
      }),
    );
  });

  it('converts any result value', () => {
    fc.assert(
      fc.property(fc.anything(), (result) => {
        const outcome = toolCallToOutcome('read_file', { path: 'a' }, result);
        expect(typeof outcome.success).toBe('boolean');
        adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
      }),
    );
  });

  it('describes outcomes whose fields have the wrong types', () => {
    fc.assert(
      fc.property(
        fc.record({
          content: fc.anything(),
          error: fc.anything(),
          status: fc.anything(),
          errorCode: fc.anything(),
          exceptionName: fc.anything(),
          meta: fc.anything(),
        }),
        (fields) => {
          const outcome = {
            proposal: { tool: 'fetch', args: {} },
            success: false,
            ...fields,
          } as unknown as Outcome;
          const facts = adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
          expect(adapter.signatures).toContain(facts?.signature);
          adapter.isNonAdvancing(outcome);
        },
      ),
    );
  });

  it('describes proposals whose fields have the wrong types', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (tool, input, annotations) => {
        const proposal = { tool, args: input, annotations } as unknown as Proposal;
        const call = adapter.describeCall(proposal);
        expect(adapter.actionClasses).toContain(call.actionClass);
        adapter.describeFailure({ proposal, success: false, error: 'ENOENT' }, call);
      }),
    );
  });

  it('reads long hostile texts', () => {
    const text = `${'a'.repeat(50_000)} HTTP 429 ${'('.repeat(10_000)}${' '.repeat(20_000)}x`;
    const outcome = toolCallToOutcome('fetch', { url: 'https://x.dev' }, { error: text });
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.signature).toBeDefined();
  });
});

describe('the command of a shell call', () => {
  it('is the command with every run of whitespace collapsed to one space, and trimmed', () => {
    const spacing = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', ' \u2003 ');
    const word = fc.constantFrom('npm', 'test', '--', "'a b'", 'src/app.ts', '|', 'grep', '-n', 'x');
    const command = fc.array(fc.oneof(word, spacing), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(command, (text) => {
        const expected = text.replace(/\s+/g, ' ').trim();
        const facts = adapter.describeCall(toolCallToProposal('bash', { command: text }));
        expect(facts.targets).toEqual(expected === '' ? [] : [expected]);
      }),
    );
  });
});

describe('what a shell call of several lines does', () => {
  it('is read line by line, as the shell runs it, not from its collapsed target', () => {
    const describe = (command: string) => adapter.describeCall(toolCallToProposal('bash', { command }));
    const commented = describe('# write the decoder\necho "print(42)" > decode.py');
    expect(commented.changesNothing).toBeUndefined();
    expect(commented.touches).toEqual(['decode.py']);
    expect(describe('cat build/manifest.json\nrm -rf build').changesNothing).toBeUndefined();
    expect(describe('cd /srv/shop\nnpm run migrate').navigates).toBeUndefined();
    expect(describe('# look first\nls -la src').changesNothing).toBe(true);
    expect(describe("python3 - <<'EOF'\nimport os\nprint(os.getcwd())\nEOF").program).toBe('python3');
  });

  it('runs the program of its lines as the shell splits them, a here-document in a word passed over', () => {
    const describe = (command: string) => adapter.describeCall(toolCallToProposal('bash', { command }));
    const body =
      "gh pr create --title 'Parse quoted lists' --body \"$(cat <<'EOF'\n## Summary\n- split at ; and && only outside quotes\nEOF\n)\"";
    expect(describe(body).program).toBe('gh pr');
    const commit =
      "git add -A && git commit -F - <<'EOF'\nfix: read lists; keep quotes\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF";
    expect(describe(commit).program).toBe('git commit');
  });

  it('runs nothing when it is blank or only a comment', () => {
    for (const command of ['', '   ', '# nothing to run here', '# first thought\n# second thought']) {
      const facts = adapter.describeCall(toolCallToProposal('bash', { command }));
      expect(facts.changesNothing, JSON.stringify(command)).toBe(true);
    }
  });
});

describe('the service of an MCP tool', () => {
  it('is the server its name carries, however long the name', () => {
    const server = fc.stringMatching(/^[a-z][a-z0-9-]{0,40}$/);
    fc.assert(
      fc.property(
        server,
        fc.string({ unit: fc.constantFrom('a', 'e', 'z'), maxLength: 5_000 }),
        (name, rest) => {
          const facts = adapter.describeCall(
            toolCallToProposal(`mcp__${name}__list_${rest}`, { query: 'open bugs' }),
          );
          expect(facts.service).toBe(name);
        },
      ),
    );
  });
});
