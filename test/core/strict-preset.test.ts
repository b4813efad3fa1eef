import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const strict = () => new Agent({ policy: { preset: 'strict' } });

const NO_UPSTREAM = {
  text: [
    'Exit code 128',
    'fatal: The current branch feature has no upstream branch.',
    'To push the current branch and set the remote as upstream, use',
    '',
    '    git push --set-upstream origin feature',
  ].join('\n'),
  isError: true,
};
const PUSHED = [
  'To github.com:acme/shop.git',
  ' * [new branch]      feature -> feature',
  "branch 'feature' set up to track 'origin/feature'.",
].join('\n');
const LINT_FAILURE = {
  text: [
    '/repo/src/cart.ts',
    '  12:5  error  Replace `··return·total` with `return total`  prettier/prettier',
    '',
    '✖ 1 problem (1 error, 0 warnings)',
    '  1 error and 0 warnings potentially fixable with the `--fix` option.',
  ].join('\n'),
  isError: true,
};
const PYTEST_FAILURE = {
  text: [
    '    def test_parse_empty():',
    '>       assert parse("") == []',
    'E       AssertionError: assert None == []',
    'tests/test_parse.py:8: AssertionError',
    'FAILED tests/test_parse.py::test_parse_empty - AssertionError',
    '1 failed in 0.04s',
  ].join('\n'),
  isError: true,
};
const OLD_STRING_MISSING = { text: 'Error: old_string not found in src/app.ts', isError: true };

describe('the strict preset widens a failure to its target only when another call corroborates it', () => {
  it('lets a search for another pattern run after one search of the directory found nothing', () => {
    const agent = strict();
    agent.call('Grep', { pattern: 'useCartTotals', path: 'src/hooks' }, 'No files found');
    expect(agent.check('Grep', { pattern: 'cartTotals', path: 'src/hooks' }).verdict).toBe('allow');
  });

  it('lets a glob run after one rg search of the same directory matched nothing', () => {
    const agent = strict();
    agent.call('rg', { pattern: 'OrderSummary', path: 'src/components' }, 'No matches found');
    expect(agent.check('glob', { pattern: '**/*Summary*.tsx', path: 'src/components' }).verdict).toBe(
      'allow',
    );
  });

  it('blocks a third search of a directory where two different searches found nothing', () => {
    const agent = strict();
    agent.call('Grep', { pattern: 'useCartTotals', path: 'src/hooks' }, 'No files found');
    agent.call('Grep', { pattern: 'useCartTotal', path: 'src/hooks' }, 'No files found');
    const check = agent.check('Grep', { pattern: 'CartTotals', path: 'src/hooks' });
    expect(check).toMatchObject({ verdict: 'block', rule: 'target-ban' });
  });

  it('counts two searches that differ only past what a description shows as two calls', () => {
    const agent = strict();
    const prefix = 'export (async )?function (useCartTotals|useCartSubtotal|useCartDiscounts|useCart';
    agent.call('Grep', { pattern: `${prefix}Taxes)`, path: 'src/hooks' }, 'No files found');
    agent.call('Grep', { pattern: `${prefix}Fees)`, path: 'src/hooks' }, 'No files found');
    expect(agent.check('Grep', { pattern: 'useCart', path: 'src/hooks' }).rule).toBe('target-ban');
  });

  it('does not count the same search failing twice as corroboration of its directory', () => {
    const agent = strict();
    agent.repeat(2, 'Grep', { pattern: 'useCartTotals', path: 'src/hooks' }, 'No files found');
    expect(agent.check('Grep', { pattern: 'cartTotals', path: 'src/hooks' }).verdict).toBe('allow');
  });

  it('lets another edit of a file through after one edit of it did not find its text', () => {
    const agent = strict();
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'foo()', new_string: 'bar()' },
      OLD_STRING_MISSING,
    );
    expect(
      agent.check('edit_file', { path: 'src/app.ts', old_string: 'baz()', new_string: 'x' }).verdict,
    ).toBe('allow');
  });
  it('does not block a third edit of a file after two edits whose text was not found in it', () => {
    const agent = strict();
    const notFound = (text: string) => ({
      text: `<tool_use_error>String to replace not found in file.\nString: ${text}</tool_use_error>`,
      isError: true,
    });
    const edit = (oldString: string) => ({
      file_path: 'src/cart.ts',
      old_string: oldString,
      new_string: 'return total;',
    });
    agent.call(
      'Read',
      { file_path: 'src/cart.ts' },
      '     1\texport function cartTotal(items: Item[]): number {\n     2\t  const sum = items.reduce((a, i) => a + i.price, 0);\n     3\t  return sum;\n     4\t}\n',
    );
    agent.call('Edit', edit('return  sum;'), notFound('return  sum;'));
    agent.call('Edit', edit('return\tsum;'), notFound('return\tsum;'));
    expect(agent.check('Edit', edit('  return sum;')).verdict).not.toBe('block');
  });
});

describe('the strict preset lifts a failing command after a change that could cure it', () => {
  it('lets git push run again once git push --set-upstream succeeded', () => {
    const agent = strict();
    agent.repeat(2, 'Bash', { command: 'git push' }, NO_UPSTREAM);
    expect(agent.check('Bash', { command: 'git push' }).verdict).toBe('block');
    agent.call('Bash', { command: 'git push --set-upstream origin feature' }, PUSHED);
    expect(agent.check('Bash', { command: 'git push' }).verdict).toBe('allow');
  });

  it('lets the linter run again once a formatter ran', () => {
    const agent = strict();
    agent.call('Bash', { command: 'npx eslint src' }, LINT_FAILURE);
    expect(agent.check('Bash', { command: 'npx eslint src' }).verdict).toBe('block');
    agent.call('Bash', { command: 'npx prettier --write src' }, 'src/cart.ts 41ms');
    expect(agent.check('Bash', { command: 'npx eslint src' }).verdict).toBe('allow');
  });

  it('lets a test command run again once the file it names was edited', () => {
    const agent = strict();
    agent.call('Bash', { command: 'pytest tests/test_parse.py' }, PYTEST_FAILURE);
    agent.call(
      'Edit',
      { file_path: 'tests/test_parse.py', old_string: '== []', new_string: 'is None' },
      'The file tests/test_parse.py has been updated successfully.',
    );
    expect(agent.check('Bash', { command: 'pytest tests/test_parse.py' }).verdict).toBe('allow');
  });

  it('keeps a test command blocked after an edit of a file it neither names nor reads', () => {
    const agent = strict();
    // A test run's failure is never certain on one sighting, under this preset too.
    agent.call('Bash', { command: 'pytest tests/test_parse.py' }, PYTEST_FAILURE);
    agent.call('Bash', { command: 'pytest tests/test_parse.py' }, PYTEST_FAILURE);
    agent.call(
      'Edit',
      { file_path: 'docs/usage.md', old_string: 'parse', new_string: 'parse()' },
      'The file docs/usage.md has been updated successfully.',
    );
    expect(agent.check('Bash', { command: 'pytest tests/test_parse.py' }).verdict).toBe('block');
  });
});

describe('the strict preset stays blame-aware', () => {
  it('does not ban a call after one failure whose error nobody can blame', () => {
    const agent = strict();
    agent.call(
      'Read',
      { file_path: 'lib/app/session_live.ex' },
      { text: '<tool_use_error>Sibling tool call errored</tool_use_error>', isError: true },
    );
    expect(agent.check('Read', { file_path: 'lib/app/session_live.ex' }).verdict).toBe('allow');
  });
});

describe('the strict preset lifts a missing dependency once an install ran', () => {
  it('lets a build run again once npm install succeeded', () => {
    const agent = strict();
    const missing = {
      text: [
        'Exit code 1',
        "Error: Cannot find module 'esbuild'",
        'Require stack:',
        '- /repo/scripts/build.js',
      ].join('\n'),
      isError: true,
    };
    agent.call('Bash', { command: 'node scripts/build.js' }, missing);
    expect(agent.check('Bash', { command: 'node scripts/build.js' }).verdict).toBe('block');
    agent.call('Bash', { command: 'npm install --save-dev esbuild' }, 'added 2 packages in 3s');
    expect(agent.check('Bash', { command: 'node scripts/build.js' }).verdict).toBe('allow');
  });
});
