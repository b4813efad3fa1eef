import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

/** pytest's answer to a failing assertion, with the address and the duration that change every run. */
const failingTest = (run: number) => ({
  text: [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0',
    'rootdir: /home/dev/shop',
    'collected 7 items',
    '',
    'tests/test_cart.py ......F',
    '',
    '=================================== FAILURES ===================================',
    '____________________________ test_discount_applied _____________________________',
    '',
    '    def test_discount_applied():',
    '        cart = Cart()',
    "        cart.add(Item('book', 20.0))",
    "        cart.apply('SAVE10')",
    '>       assert cart.total() == 18.0',
    'E       assert 20.0 == 18.0',
    `E        +  where 20.0 = <bound method Cart.total of <shop.cart.Cart object at 0x7f3a2c${40 + run}d0>>()`,
    '',
    'tests/test_cart.py:41: AssertionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_cart.py::test_discount_applied - assert 20.0 == 18.0',
    `========================= 1 failed, 6 passed in 0.${10 + run}s ==========================`,
  ].join('\n'),
  isError: true,
});

const IMPORT_ERROR = {
  text: [
    '==================================== ERRORS ====================================',
    '______________________ ERROR collecting tests/test_cart.py ______________________',
    "ImportError while importing test module '/home/dev/shop/tests/test_cart.py'.",
    "E   ModuleNotFoundError: No module named 'shop'",
    '=========================== short test summary info ============================',
    'ERROR tests/test_cart.py',
    '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!!',
    '=============================== 1 error in 0.08s ===============================',
  ].join('\n'),
  isError: true,
};

const bash = (command: string) => ({ command, description: 'Run the cart tests' });

/** `pytest` and `python -m pytest` on the cart tests, both failing on the same assertion. */
function afterTwoSpellings(): Agent {
  const agent = new Agent();
  agent.call('Bash', bash('pytest tests/test_cart.py -x'), failingTest(1));
  agent.call('Bash', bash('python -m pytest tests/test_cart.py -x'), failingTest(2));
  return agent;
}

describe('respelled-command', () => {
  it('blocks a third spelling of a test run once two spellings failed on the same assertion', () => {
    const check = afterTwoSpellings().check('Bash', bash('python3 -m pytest -x tests/test_cart.py -q'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'respelled-command' });
  });

  it('blocks a variable set before the same command', () => {
    const check = afterTwoSpellings().check('Bash', bash('PYTHONPATH=. pytest tests/test_cart.py -x'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'respelled-command' });
  });

  it('says the command failed the same way, how often, and what to do instead', () => {
    const check = afterTwoSpellings().check('Bash', bash('uv run pytest tests/test_cart.py -x'));
    expect(check.reason).toContain('failed the same way');
    expect(check.reason).toContain('2 times in a row, spelled 2 ways');
    expect(check.reason).toContain('("============================= test session starts');
    expect(check.suggestion).toContain('Change what the command runs on');
  });

  it('allows a spelling that points the command at another database', () => {
    const agent = new Agent();
    const refused = {
      text: 'error: password authentication failed for user "shop"\nELIFECYCLE Command failed with exit code 1.',
      isError: true,
    };
    agent.call(
      'Bash',
      { command: 'DATABASE_URL=postgres://shop@localhost/shop npx prisma migrate deploy' },
      refused,
    );
    agent.call(
      'Bash',
      { command: 'DATABASE_URL=postgres://shop@localhost/shop prisma migrate deploy' },
      refused,
    );
    expect(
      agent.check('Bash', {
        command: 'DATABASE_URL=postgres://shop@db.internal/shop npx prisma migrate deploy',
      }).rule,
    ).not.toBe('respelled-command');
  });

  it('allows a command that runs other tests', () => {
    const check = afterTwoSpellings().check('Bash', bash('pytest tests/test_orders.py -x'));
    expect(check.verdict).toBe('allow');
  });

  it('allows the third spelling once the code under test was edited', () => {
    const agent = afterTwoSpellings();
    agent.call(
      'Edit',
      {
        file_path: '/home/dev/shop/shop/cart.py',
        old_string: 'return total',
        new_string: 'return total * 0.9',
      },
      'The file /home/dev/shop/shop/cart.py has been updated.',
    );
    expect(agent.check('Bash', bash('python3 -m pytest -x tests/test_cart.py')).verdict).toBe('allow');
  });

  it('allows a respelling after two spellings that failed differently', () => {
    const agent = new Agent();
    agent.call('Bash', bash('pytest tests/test_cart.py -x'), IMPORT_ERROR);
    agent.call('Bash', bash('python -m pytest tests/test_cart.py -x'), failingTest(2));
    expect(agent.check('Bash', bash('PYTHONPATH=. pytest tests/test_cart.py -x')).verdict).toBe('allow');
  });

  it('leaves one spelling failing twice to the rules on identical calls', () => {
    const agent = new Agent();
    agent.call('Bash', bash('pytest tests/test_cart.py -x'), failingTest(1));
    agent.call('Bash', bash('pytest tests/test_cart.py -x'), failingTest(2));
    expect(agent.check('Bash', bash('python -m pytest tests/test_cart.py -x')).rule).not.toBe(
      'respelled-command',
    );
  });

  it('leaves failures it cannot blame on the agent out', () => {
    const agent = new Agent();
    const timeout = { text: 'curl: (28) Operation timed out after 30001 milliseconds', isError: true };
    agent.call('Bash', { command: 'curl -sS https://api.example.com/v1/health --fail' }, timeout);
    agent.call('Bash', { command: 'DEBUG=1 curl -sS https://api.example.com/v1/health --fail' }, timeout);
    expect(
      agent.check('Bash', { command: 'curl --fail -sS https://api.example.com/v1/health' }).verdict,
    ).toBe('allow');
  });

  it('starts over after a user message', () => {
    const agent = afterTwoSpellings();
    agent.loop.newRun('user');
    expect(agent.check('Bash', bash('python3 -m pytest -x tests/test_cart.py')).rule).not.toBe(
      'respelled-command',
    );
  });

  it('is turned off by its policy switch', () => {
    const agent = new Agent({ policy: { detectors: { respelledCommand: { enabled: false } } } });
    agent.call('Bash', bash('pytest tests/test_cart.py -x'), failingTest(1));
    agent.call('Bash', bash('python -m pytest tests/test_cart.py -x'), failingTest(2));
    expect(agent.check('Bash', bash('python3 -m pytest -x tests/test_cart.py')).rule).not.toBe(
      'respelled-command',
    );
  });

  it('keeps blocking in a new process that reads the session back, without the command in clear', () => {
    const agent = afterTwoSpellings();
    const snapshot = agent.loop.snapshot();
    const { session } = snapshot as { session?: { detectors?: Record<string, unknown> } };
    const saved = JSON.stringify(session?.detectors?.['respelled-command']);
    expect(saved).toContain('spellings');
    expect(saved).not.toMatch(/pytest|cart|assert/);
    const restored = new Agent();
    restored.loop.restore(snapshot);
    const check = restored.check('Bash', bash('python3 -m pytest -x tests/test_cart.py'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'respelled-command' });
    expect(check.reason).toContain('failed the same way 2 times in a row');
  });

  it('restores any value in place of its saved state without throwing, and blocks nothing from it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (state) => {
        const agent = new Agent().restoredWith('respelled-command', state);
        expect(agent.check('Bash', bash('python3 -m pytest -x tests/test_cart.py')).verdict).toBe('allow');
      }),
      { numRuns: 200 },
    );
  });
});
