import { describe, expect, it } from 'vitest';
import { refusesOrder } from '../../../src/adapters/tool-call/ordering.js';

describe('errors that refuse a call because another must come first', () => {
  it.each([
    'Invalid action. Submit only follows the Verify action.',
    'Error: no active connection. Call connect first.',
    'No session is open: start one first.',
    'Error: terraform plan is not allowed before terraform init has completed.',
    'Error: you must take a snapshot before clicking an element.',
    'Cannot close OPS-3381: this action requires assign_ticket to be run first.',
    'checkout_cart must be called after add_to_cart.',
    'Error: run `make configure` first.',
    'Error: no page is open. Use the "open_page" tool to load one first.',
  ])('recognises %j', (text) => {
    expect(refusesOrder(text)).toBe(true);
  });

  it.each([
    'ERROR: NO ACTIVE CONNECTION. CALL CONNECT FIRST.',
    'Invalid action. Submit Only Follows the Verify action.',
    'Events arrived OUT OF ORDER: replay them.',
  ])('recognises %j whatever the case of its words', (text) => {
    expect(refusesOrder(text)).toBe(true);
  });

  it.each([
    'Error: File run.py not found',
    'Select the first item of the list to continue.',
    'Run the tests first failed with exit code 1',
    'Use the first two arguments of the call as the range.',
    'Invalid action. Search is not available.',
    'fatal: not a git repository (or any of the parent directories): .git',
    "ENOENT: no such file or directory, open '/srv/app/src/orders/module-9.ts'",
  ])('does not read %j as an ordering refusal', (text) => {
    expect(refusesOrder(text)).toBe(false);
  });
});
