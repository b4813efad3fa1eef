import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { normalizeArguments, normalizeCommand } from '../../src/adapters/tool-call/normal-form.js';
import { identifyArguments, identifyCall, UNREADABLE } from '../../src/core/identity/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { growth } from '../growth.js';

function engine() {
  return new NarrowingEngine({ adapter: createToolCallAdapter() });
}

describe('arguments that throw', () => {
  it('checks a call whose arguments have a getter that throws, with the value as a marker', () => {
    const args: Record<string, unknown> = { path: 'src/config.ts' };
    Object.defineProperty(args, 'encoding', {
      enumerable: true,
      get() {
        throw new Error('getter exploded');
      },
    });
    const loop = engine();
    expect(loop.checkProposal({ tool: 'read_file', args }).verdict).toBe('allow');
    expect(identifyArguments('read_file', args).args).toEqual({
      path: 'src/config.ts',
      encoding: UNREADABLE,
    });
  });

  it('checks a call carrying a proxy whose traps throw', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('ownKeys exploded');
        },
      },
    );
    const loop = engine();
    const verdict = loop.checkProposal({ tool: 'search', args: { query: 'TODO', options: hostile } });
    expect(verdict.verdict).toBe('allow');
  });
});

describe('huge arguments', () => {
  it('checks a call with 200,000 keys in bounded time, the bound visible in its identity', async () => {
    const argsOf = (keys: number) => {
      const made: Record<string, unknown> = { path: 'data/seed.json' };
      for (let index = 0; index < keys; index++) made[`field_${index}`] = index;
      return made;
    };
    const calls = new Map([1, 16].map((scale) => [scale, argsOf(12_500 * scale)]));
    // Sixteen times the keys cost at most about sixteen times as long (the identity keeps 1,000 of
    // them whatever the count); work on every pair of keys, 256 times. The bound sits a factor of
    // four from each, so a busy machine does not decide it.
    const ratio = await growth(
      (scale) => engine().checkProposal({ tool: 'write_file', args: calls.get(scale) ?? {} }),
      16,
      5,
    );
    expect(ratio).toBeLessThan(64);
    const args = calls.get(16) ?? {};
    const { args: bounded } = identifyArguments('write_file', args);
    expect(Object.keys(bounded)).toHaveLength(1_001);
    expect(bounded['[+keys]']).toBe(199_001);
  });

  it('enumerates huge arguments a bounded number of times, whatever later steps look at them', () => {
    const target: Record<string, unknown> = { path: 'data/seed.json' };
    for (let index = 0; index < 20_000; index++) target[`field_${index}`] = `value ${index}`;
    let enumerations = 0;
    const args = new Proxy(target, {
      ownKeys(object) {
        enumerations += 1;
        return Reflect.ownKeys(object);
      },
    });
    const loop = engine();
    const proposal = { tool: 'write_file', args };
    loop.checkProposal(proposal);
    loop.recordOutcome({
      proposal,
      success: false,
      error: "EACCES: permission denied, open 'data/seed.json'",
    });
    loop.checkProposal(proposal);
    expect(enumerations).toBeLessThanOrEqual(2);
  });
});

describe('spelling of commands and paths', () => {
  const key = (tool: string, args: Record<string, unknown>) =>
    identifyArguments(tool, args, normalizeArguments).identity.callKey;

  it('identifies a command the same whatever the spacing between its words', () => {
    const word = fc.stringMatching(/^[a-z0-9./=-]{1,8}$/);
    const gap = fc.stringMatching(/^[ \t]{1,4}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 6 }), gap, (parts, lead) => {
        const spaced = lead + parts.map(([w, g]) => w + g).join('');
        const plain = parts.map(([w]) => w).join(' ');
        expect(key('bash', { command: spaced })).toBe(key('bash', { command: plain }));
      }),
    );
  });

  it('keeps spacing inside quotes, which changes what the command does', () => {
    expect(normalizeCommand('git commit -m  "fix  the   build"')).toBe('git commit -m "fix  the   build"');
    expect(key('bash', { command: "echo 'a  b'" })).not.toBe(key('bash', { command: "echo 'a b'" }));
  });

  it('keeps the spacing of a heredoc body, which is the text the program is given', () => {
    const patch = (indent: string) =>
      `apply_patch <<  'PATCH'\n*** Begin Patch\n*** Update File: a.json\n@@\n-${indent}"pin": 0,\n*** End Patch\nPATCH`;
    expect(normalizeCommand(patch('            '))).toBe(
      `apply_patch << 'PATCH'\n*** Begin Patch\n*** Update File: a.json\n@@\n-            "pin": 0,\n*** End Patch\nPATCH`,
    );
    expect(key('shell', { command: patch('            ') })).not.toBe(
      key('shell', { command: patch('          ') }),
    );
  });

  it('collapses the spacing of the commands after a heredoc as of any other', () => {
    expect(normalizeCommand("cat > notes.md <<'EOF'\n  - a  b\nEOF\n  npm   test")).toBe(
      "cat > notes.md <<'EOF'\n  - a  b\nEOF\nnpm test",
    );
  });

  it('keeps newlines, which separate commands', () => {
    expect(normalizeCommand('cd api  \n  make   test')).toBe('cd api\nmake test');
  });

  it('identifies ./path and path as one path', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}(\.[a-z]{1,3})?$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = segments.join('/');
        expect(key('read_file', { path: `./${path}` })).toBe(key('read_file', { path }));
        expect(key('read_file', { file_path: path.replace('/', '/./') })).toBe(
          key('read_file', { file_path: path }),
        );
      }),
    );
  });

  it('blocks a failing command retried with extra spaces as the identical call it is', () => {
    const loop = engine();
    const fail = (command: string) => {
      const proposal = toolCallToProposal('bash', { command });
      const verdict = loop.checkProposal(proposal);
      loop.recordOutcome({
        proposal,
        success: false,
        error: 'npm ERR! Missing script: "tset"\n\nnpm ERR! Did you mean this?\nnpm ERR!     npm test',
      });
      return verdict;
    };
    fail('npm run tset');
    fail('npm  run tset');
    expect(loop.checkProposal(toolCallToProposal('bash', { command: 'npm run   tset ' })).verdict).toBe(
      'block',
    );
  });

  it('leaves arguments the normal form does not touch as they are', () => {
    const args = { command: 'ls -la', path: 'src/a.ts' };
    expect(identifyArguments('bash', args).args).toBe(args);
    expect(identifyArguments('bash', args).identity.callKey).toBe(identifyCall('bash', args).callKey);
  });
});
