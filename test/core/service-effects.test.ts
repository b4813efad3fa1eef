import { describe, expect, it } from 'vitest';
import { Agent, ENOENT } from './support.js';

/** tau-bench's airline tools, as a customer-service agent calls them. */
const reservation = { reservation_id: 'ZFA04Y' };
const details = JSON.stringify({
  reservation_id: 'ZFA04Y',
  user_id: 'mia_li_3668',
  flights: [{ flight_number: 'HAT136', date: '2024-05-20', origin: 'JFK', destination: 'SEA' }],
  status: 'confirmed',
});
const booking = {
  user_id: 'mia_li_3668',
  origin: 'JFK',
  destination: 'SEA',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT136', date: '2024-05-20' }],
  passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
  payment_methods: [{ payment_id: 'gift_card_7219486', amount: 217 }],
  total_baggages: 0,
  nonfree_baggages: 0,
  insurance: 'no',
};
const soldOut = { text: 'Error: not enough seats on flight HAT136', isError: true };
const cancelled = JSON.stringify({ reservation_id: 'ZFA04Y', status: 'cancelled' });
const userDetails = JSON.stringify({ user_id: 'mia_li_3668', reservations: ['ZFA04Y'] });

/** A booking that failed the same way twice: the third identical attempt is blocked. */
function bannedBooking(agent: Agent): void {
  agent.call('book_reservation', booking, soldOut);
  agent.call('book_reservation', booking, soldOut);
  expect(agent.check('book_reservation', booking)).toMatchObject({ verdict: 'block' });
}

describe('a successful side effect through a service', () => {
  it('allows a booking banned before a successful cancellation once after it', () => {
    const agent = new Agent();
    bannedBooking(agent);
    agent.call('cancel_reservation', reservation, cancelled);
    expect(agent.call('book_reservation', booking, soldOut).check.verdict).toBe('allow');
    expect(agent.check('book_reservation', booking).verdict).toBe('block');
  });

  it('allows a booking banned before a successful change of another reservation once after it', () => {
    const agent = new Agent();
    bannedBooking(agent);
    agent.call(
      'update_reservation_flights',
      {
        reservation_id: 'K1NW8N',
        cabin: 'economy',
        flights: [{ flight_number: 'HAT045', date: '2024-05-21' }],
        payment_id: 'gift_card_7219486',
      },
      JSON.stringify({ reservation_id: 'K1NW8N', flights: [{ flight_number: 'HAT045' }] }),
    );
    expect(agent.check('book_reservation', booking).verdict).toBe('allow');
  });

  it('keeps the booking banned after a cancellation under target invalidation, as strict does', () => {
    const agent = new Agent({ policy: { preset: 'strict' } });
    agent.call('book_reservation', booking, soldOut);
    agent.call('book_reservation', booking, soldOut);
    agent.call('cancel_reservation', reservation, cancelled);
    expect(agent.check('book_reservation', booking).verdict).toBe('block');
  });

  it('says which side effect relieved the ban', () => {
    const agent = new Agent();
    bannedBooking(agent);
    const { record } = agent.call('cancel_reservation', reservation, cancelled);
    expect(record?.liftedConstraints.map((ban) => ban.tool)).toEqual(['book_reservation']);
  });

  it('lets a reservation read that came back the same before run again after a cancellation', () => {
    const agent = new Agent({ policy: { detectors: { identicalResult: { revisitBlockAt: 3 } } } });
    agent.call('get_reservation_details', reservation, details);
    agent.call('get_user_details', { user_id: 'mia_li_3668' }, userDetails);
    agent.call('get_reservation_details', reservation, details);
    agent.call('search_direct_flight', { origin: 'JFK', destination: 'SEA', date: '2024-05-20' }, '[]');
    expect(agent.check('get_reservation_details', reservation).verdict).toBe('block');
    agent.call('cancel_reservation', reservation, cancelled);
    expect(agent.check('get_reservation_details', reservation).verdict).toBe('allow');
  });

  it('keeps a flight search known after a cancellation of a reservation it does not name', () => {
    const agent = new Agent({ policy: { detectors: { identicalResult: { revisitBlockAt: 3 } } } });
    const search = { origin: 'JFK', destination: 'SEA', date: '2024-05-20' };
    const flights = JSON.stringify([{ flight_number: 'HAT136', available_seats: { economy: 0 } }]);
    agent.call('search_direct_flight', search, flights);
    agent.call('get_user_details', { user_id: 'mia_li_3668' }, userDetails);
    agent.call('search_direct_flight', search, flights);
    agent.call('cancel_reservation', reservation, cancelled);
    expect(agent.check('search_direct_flight', search).verdict).toBe('block');
  });

  it('lets a balance read run again after a transfer that names no account it reads', () => {
    const agent = new Agent({ policy: { detectors: { identicalResult: { revisitBlockAt: 3 } } } });
    const balance = { account_id: 'acc_1' };
    agent.call('get_account_balance', balance, '{"account_id": "acc_1", "balance": 1200.5}');
    agent.call('get_exchange_rate', { from: 'USD', to: 'EUR' }, '{"rate": 0.92}');
    agent.call('get_account_balance', balance, '{"account_id": "acc_1", "balance": 1200.5}');
    agent.call('get_exchange_rate', { from: 'USD', to: 'GBP' }, '{"rate": 0.79}');
    expect(agent.check('get_account_balance', balance).verdict).toBe('block');
    agent.call('transfer_funds', { amount: 200, memo: 'rent' }, '{"status": "completed"}');
    expect(agent.check('get_account_balance', balance).verdict).toBe('allow');
  });

  it('allows a flight search that found nothing twice once more after a cancellation', () => {
    const agent = new Agent();
    const search = { origin: 'JFK', destination: 'SEA', date: '2024-05-20' };
    agent.call('search_direct_flight', search, '[]');
    agent.call('search_direct_flight', search, '[]');
    expect(agent.check('search_direct_flight', search).verdict).toBe('block');
    agent.call('cancel_reservation', reservation, cancelled);
    expect(agent.check('search_direct_flight', search).verdict).toBe('allow');
  });

  it('lets a flight search tool that kept finding nothing run again after a cancellation', () => {
    const agent = new Agent();
    // Other places each time: rephrasings of one request, not a sweep of dates in order.
    const searchOn = (destination: string) => ({ origin: 'JFK', destination, date: '2024-05-20' });
    for (const place of ['SEA', 'PDX', 'SFO', 'LAX', 'SAN'])
      agent.call('search_direct_flight', searchOn(place), '[]');
    expect(agent.check('search_direct_flight', searchOn('OAK')).rule).toBe('non-advancing');
    agent.call('cancel_reservation', reservation, cancelled);
    // The streak of different searches that found nothing is still worth a warning, not a block.
    expect(agent.check('search_direct_flight', searchOn('OAK')).allowed).toBe(true);
  });

  it('keeps a ban on a file that does not exist after a message is sent', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'config/deploy.yml' }, ENOENT('config/deploy.yml'));
    expect(agent.check('read_file', { path: 'config/deploy.yml' }).verdict).toBe('block');
    agent.call('send_message', { channel: 'C024BE91L', text: 'Deploying v2.3.1 now' }, '{"ok": true}');
    expect(agent.check('read_file', { path: 'config/deploy.yml' }).verdict).toBe('block');
  });

  it('keeps a file read that came back the same as known after a message is sent', () => {
    const agent = new Agent({ policy: { detectors: { identicalResult: { revisitBlockAt: 3 } } } });
    const read = { path: 'src/config.ts' };
    agent.call('read_file', read, 'export const port = 3000;');
    agent.call('grep', { pattern: 'port', path: 'src' }, 'src/config.ts:1');
    agent.call('read_file', read, 'export const port = 3000;');
    agent.call('send_message', { channel: 'C024BE91L', text: 'Looking at the port' }, '{"ok": true}');
    expect(agent.check('read_file', read).verdict).toBe('block');
  });

  it('keeps the booking banned after a read-only call of the same service succeeds', () => {
    const agent = new Agent();
    bannedBooking(agent);
    agent.call('get_user_details', { user_id: 'mia_li_3668' }, userDetails);
    agent.call('list_all_airports', {}, '["JFK", "SEA", "LAX"]');
    expect(agent.check('book_reservation', booking).verdict).toBe('block');
  });

  it('keeps the booking banned across a customer reply', () => {
    const agent = new Agent();
    bannedBooking(agent);
    agent.loop.newRun('user');
    expect(agent.check('book_reservation', booking).verdict).toBe('block');
  });

  it('keeps a ban on one MCP server after a side effect through another', () => {
    const agent = new Agent();
    const book = 'mcp__airline__book_reservation';
    agent.call(book, booking, soldOut);
    agent.call(book, booking, soldOut);
    agent.call(
      'mcp__slack__slack_post_message',
      { channel_id: 'C024BE91L', text: 'Flight HAT136 is full' },
      '{"ok": true}',
    );
    expect(agent.check(book, booking).verdict).toBe('block');
    agent.call('mcp__airline__cancel_reservation', reservation, cancelled);
    expect(agent.check(book, booking).verdict).toBe('allow');
  });
});

describe('a service ban kept across sessions', () => {
  it('is still relieved by a side effect through its service after a restore', () => {
    const agent = new Agent();
    bannedBooking(agent);
    const resumed = new Agent();
    resumed.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    // A look-up in between: the resumed session keeps its streak of refusals, and a third refusal in
    // a row of the booking would halt.
    resumed.call('get_user_details', { user_id: 'mia_li_3668' }, userDetails);
    expect(resumed.check('book_reservation', booking).verdict).toBe('block');
    resumed.call('cancel_reservation', reservation, cancelled);
    expect(resumed.check('book_reservation', booking).verdict).toBe('allow');
  });
});

describe('a command that reaches outside the machine', () => {
  /** The GitHub MCP server's create_pull_request, refused because its head branch was never pushed. */
  const open = 'mcp__github__create_pull_request';
  const pullRequest = {
    owner: 'acme',
    repo: 'billing',
    title: 'Fix AttributeError in invoice totals',
    head: 'fix/attribute-error',
    base: 'main',
  };
  const headInvalid = {
    text: 'failed to create pull request: POST https://api.github.com/repos/acme/billing/pulls: 422 Validation Failed [{Resource:PullRequest Field:head Code:invalid Message:}]',
    isError: true,
  };
  const pushed =
    "branch 'fix/attribute-error' set up to track 'origin/fix/attribute-error'.\nTo github.com:acme/billing.git\n * [new branch]      fix/attribute-error -> fix/attribute-error";

  function bannedPullRequest(agent: Agent): void {
    agent.call(open, pullRequest, headInvalid);
    agent.call(open, pullRequest, headInvalid);
    expect(agent.check(open, pullRequest).verdict).toBe('block');
  }

  it('allows a pull request refused before a git push once after it', () => {
    const agent = new Agent();
    bannedPullRequest(agent);
    agent.call('Bash', { command: 'git push -u origin fix/attribute-error' }, pushed);
    expect(agent.check(open, pullRequest).verdict).toBe('allow');
  });

  it('says which command relieved the ban', () => {
    const agent = new Agent();
    bannedPullRequest(agent);
    const { record } = agent.call('Bash', { command: 'git push -u origin fix/attribute-error' }, pushed);
    expect(record?.liftedConstraints.map((ban) => ban.tool)).toContain(open);
  });

  it('keeps the pull request banned after commands that only look', () => {
    const agent = new Agent();
    bannedPullRequest(agent);
    agent.call('Bash', { command: 'git status --short' }, ' M src/invoice.py');
    agent.call('Bash', { command: 'gh pr list --head fix/attribute-error' }, '');
    expect(agent.check(open, pullRequest).verdict).toBe('block');
  });

  it('keeps the pull request banned after a push answered as the push before it, nothing done since', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'git push' }, 'Everything up-to-date');
    agent.call(open, pullRequest, headInvalid);
    agent.call(open, pullRequest, headInvalid);
    agent.call('Bash', { command: 'git push' }, 'Everything up-to-date');
    expect(agent.check(open, pullRequest).verdict).toBe('block');
  });

  it('keeps the pull request banned after a push under target invalidation, as strict does', () => {
    const agent = new Agent({ policy: { preset: 'strict' } });
    agent.call(open, pullRequest, headInvalid);
    agent.call(open, pullRequest, headInvalid);
    agent.call('Bash', { command: 'git push -u origin fix/attribute-error' }, pushed);
    expect(agent.check(open, pullRequest).verdict).toBe('block');
  });
});
