import { describe, expect, it } from 'vitest';
import { codexHooks } from '../../src/hooks/codex.js';
import { cursorHooks } from '../../src/hooks/cursor.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { shellOutputResult } from '../../src/hooks/shell-output.js';

function afterResult(event: HookEvent) {
  if (event.action.type !== 'after-call') throw new Error(`not an after-call event: ${event.action.type}`);
  return event.action.result;
}

/** Failed runs as each runner summarises them. */
const FAILED_RUNS: readonly (readonly [string, string])[] = [
  [
    "Playwright's summary of failed tests",
    [
      '> shop-web@1.0.0 test:e2e',
      '> playwright test tests/checkout.spec.ts --reporter=line',
      '',
      'Running 3 tests using 2 workers',
      '[1/3] [chromium] › tests/checkout.spec.ts:12:7 › checkout › pays with a saved card',
      '  1) [chromium] › tests/checkout.spec.ts:12:7 › checkout › pays with a saved card ',
      '',
      '    Error: expect(received).toBeVisible()',
      '',
      "      18 |     await expect(page.getByText('Paid')).toBeVisible();",
      '',
      '  1 failed',
      '    [chromium] › tests/checkout.spec.ts:12:7 › checkout › pays with a saved card ',
      '  2 passed (14.2s)',
    ].join('\n'),
  ],
  [
    'a summary behind the terminal codes a reporter redraws its line with',
    'Running 1 test using 1 worker\n\u001b[1A\u001b[2K[1/1] [chromium] › tests/chat.spec.ts:50:7 › chat › sends\n' +
      '\u001b[1A\u001b[2K  1 failed\n    [chromium] › tests/chat.spec.ts:50:7 › chat › sends \n',
  ],
  [
    "Mocha's count of failing tests",
    [
      '  cart',
      '    ✔ adds an item',
      '    1) removes an item',
      '',
      '  1 passing (12ms)',
      '  1 failing',
      '',
      '  1) cart',
      '       removes an item:',
      '     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    ].join('\n'),
  ],
  [
    "go test's failed test and package",
    [
      '--- FAIL: TestParseConfig (0.00s)',
      '    config_test.go:42: got "", want "prod"',
      'FAIL',
      'FAIL\texample.com/shop/config\t0.012s',
      'FAIL',
    ].join('\n'),
  ],
  [
    "cargo test's failed result line",
    [
      'running 12 tests',
      'test parser::tests::reads_empty_input ... FAILED',
      '',
      'test result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s',
    ].join('\n'),
  ],
  [
    "RSpec's count of failures",
    [
      'Finished in 0.31 seconds (files took 1.2 seconds to load)',
      '5 examples, 1 failure',
      '',
      'Failed examples:',
      '',
      'rspec ./spec/cart_spec.rb:14 # Cart removes an item',
    ].join('\n'),
  ],
  [
    "PHPUnit's FAILURES verdict",
    'There was 1 failure:\n\n1) CartTest::testRemove\n\nFAILURES!\nTests: 12, Assertions: 30, Failures: 1.',
  ],
  [
    "dotnet test's Failed summary",
    'Failed!  - Failed:     1, Passed:    41, Skipped:     0, Total:    42, Duration: 2 s - Shop.Tests.dll (net8.0)',
  ],
  [
    "bun test's count of failing tests",
    ' 3 pass\n 1 fail\n 7 expect() calls\nRan 4 tests across 2 files. [45.00ms]',
  ],
];

/**
 * A terminal that shows the output but no exit status (Cursor's shell hook, Codex's bare output):
 * a test run that failed is told by the runner's own summary of it, whichever runner it is.
 */
describe("test runners' summaries as evidence of a failed run", () => {
  it.each(FAILED_RUNS)('reads %s as a failure', (_runner, output) => {
    expect(shellOutputResult(output).ok).toBe(false);
  });

  it('reads the same runners passing as a success', () => {
    const passing = [
      'Running 3 tests using 2 workers\n  3 passed (10.1s)',
      '  cart\n    ✔ adds an item\n\n  4 passing (20ms)',
      'PASS\nok  \texample.com/shop/config\t0.010s',
      'test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s',
      'Finished in 0.31 seconds (files took 1.2 seconds to load)\n5 examples, 0 failures',
      'OK (12 tests, 30 assertions)',
      'Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 2 s - Shop.Tests.dll (net8.0)',
      ' 4 pass\n 0 fail\nRan 4 tests across 2 files. [45.00ms]',
    ];
    for (const output of passing) expect(shellOutputResult(output).ok, output).toBe(true);
  });

  it('reads a file that only mentions failed tests in prose as a success', () => {
    const notes =
      '# Release notes\nThe nightly run had 1 failed test, fixed since.\nFAILURES are listed in CI.';
    expect(shellOutputResult(notes).ok).toBe(true);
  });
});

describe('a failed test run as the hosts without an exit status report it', () => {
  const playwright =
    '> shop-web@1.0.0 test:e2e\n> playwright test tests/chat.spec.ts:50 --reporter=line\n\nRunning 1 test using 1 worker\n' +
    '\u001b[1A\u001b[2K  1) [chromium] › tests/chat.spec.ts:50:7 › chat › sends a message \n\n' +
    '    Error: expect(received).toBeTruthy()\n\n\u001b[1A\u001b[2K  1 failed\n    [chromium] › tests/chat.spec.ts:50:7 › chat › sends a message \n';

  it("reads Cursor's shell output of a failing Playwright run as a failed call", () => {
    const event = cursorHooks.parse({
      conversation_id: 'c1',
      generation_id: 'g1',
      hook_event_name: 'afterShellExecution',
      workspace_roots: ['/home/dev/shop'],
      command: 'cd web && npm run test:e2e -- tests/chat.spec.ts:50 --reporter=line',
      output: playwright,
    });
    expect(afterResult(event).ok).toBe(false);
  });

  it("reads Codex's bare output of a failing go test run as a failed call", () => {
    const event = codexHooks.parse({
      session_id: 's1',
      cwd: '/home/dev/shop',
      hook_event_name: 'PostToolUse',
      tool_name: 'shell',
      tool_input: { command: ['go', 'test', './config/...'] },
      tool_response:
        '--- FAIL: TestParseConfig (0.00s)\n    config_test.go:42: got "", want "prod"\nFAIL\nFAIL\texample.com/shop/config\t0.012s\nFAIL\n',
      tool_use_id: 'call_7',
    });
    expect(afterResult(event).ok).toBe(false);
  });
});
