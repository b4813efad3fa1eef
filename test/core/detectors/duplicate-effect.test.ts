import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

const BOOKING = {
  user_id: 'mia_li_3668',
  origin: 'JFK',
  destination: 'SEA',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT136', date: '2024-05-20' }],
  payment_methods: [{ payment_id: 'certificate_7504069', amount: 156 }],
};
const BOOKED = JSON.stringify({ reservation_id: 'HATHAT', user_id: 'mia_li_3668', status: 'confirmed' });

describe('duplicate-effect', () => {
  it('blocks a booking that already went through, asked for again with the same arguments', () => {
    const agent = new Agent();
    expect(agent.call('book_reservation', BOOKING, BOOKED).check.verdict).toBe('allow');
    const again = agent.check('book_reservation', BOOKING);
    expect(again).toMatchObject({ verdict: 'block', rule: 'duplicate-effect' });
    expect(again.reason).toContain('already succeeded');
  });

  it('blocks a message sent a second time with the same text', () => {
    const agent = new Agent();
    const message = { channel_id: 'C024BE91L', text: 'Deploy of web 1.4.2 finished' };
    agent.call('slack_post_message', message, '{"ok":true,"ts":"1732550000.000200"}');
    expect(agent.check('slack_post_message', message).verdict).toBe('block');
  });

  it('allows the same booking again after it failed, and a different booking after a success', () => {
    const agent = new Agent();
    agent.call('book_reservation', BOOKING, {
      error: 'Error: payment amount does not add up, total price is 312, but paid 156',
    });
    expect(agent.check('book_reservation', BOOKING).allowed).toBe(true);
    agent.call(
      'book_reservation',
      { ...BOOKING, payment_methods: [{ payment_id: 'certificate_7504069', amount: 312 }] },
      BOOKED,
    );
    expect(agent.check('book_reservation', { ...BOOKING, destination: 'LAX' }).allowed).toBe(true);
  });

  it('takes calls that differ only by a date or a timestamp for different calls', () => {
    const agent = new Agent();
    agent.call('book_reservation', BOOKING, BOOKED);
    const laterFlight = { ...BOOKING, flights: [{ flight_number: 'HAT136', date: '2024-05-21' }] };
    expect(agent.check('book_reservation', laterFlight).allowed).toBe(true);
    agent.call('git_create_branch', { repo: 'web', name: 'fix/login-2026-03-02T10-15-00' }, 'Created branch');
    expect(
      agent.check('git_create_branch', { repo: 'web', name: 'fix/login-2026-03-02T10-16-00' }).allowed,
    ).toBe(true);
  });

  it('blocks a bare submit made again with nothing changed, and allows it once the workspace changed since', () => {
    const agent = new Agent();
    const review =
      'Thank you for your work on this issue. Please carefully follow the steps below to help review your changes.';
    agent.call('submit', {}, review);
    expect(agent.check('submit', {})).toMatchObject({ verdict: 'block', rule: 'duplicate-effect' });
    agent.call('bash', { command: 'rm -f /testbed/reproduce.py' }, '');
    expect(agent.check('submit', {}).allowed).toBe(true);
  });

  it('allows a bare submit again when its answer asked for the submit command, and blocks a third', () => {
    const agent = new Agent();
    const review = [
      'Please review your changes before they go in:',
      '1. Remove your reproduction script.',
      '2. Run the submit command again to confirm.',
      '',
      '<diff>',
      'diff --git a/moto/core/models.py b/moto/core/models.py',
    ].join('\n');
    agent.call('submit', {}, review);
    expect(agent.check('submit', {}).allowed).toBe(true);
    agent.call('submit', {}, 'diff --git a/moto/core/models.py b/moto/core/models.py');
    expect(agent.check('submit', {})).toMatchObject({ verdict: 'block', rule: 'duplicate-effect' });
  });

  it('keeps a confirming answer across a restore of the engine', () => {
    const agent = new Agent();
    agent.call('submit', {}, 'Run the submit command again to confirm.');
    const restored = new Agent();
    restored.loop.restore(agent.loop.snapshot());
    expect(restored.check('submit', {}).allowed).toBe(true);
  });

  it('still blocks a booking made again after a file changed: its arguments say what it books', () => {
    const agent = new Agent();
    agent.call('book_reservation', BOOKING, BOOKED);
    agent.call(
      'Write',
      { file_path: 'notes/trip.md', content: 'Booked HAT136 on May 20.' },
      'File created successfully at: notes/trip.md',
    );
    expect(agent.check('book_reservation', BOOKING).verdict).toBe('block');
  });

  it('allows the same request again once the user asks for it anew', () => {
    const agent = new Agent();
    agent.call('book_reservation', BOOKING, BOOKED);
    agent.loop.newRun('user');
    expect(agent.check('book_reservation', BOOKING).allowed).toBe(true);
  });

  it('leaves tools declared polls, and detectors turned off per tool, alone', () => {
    const polled = new Agent({ policy: { tools: { send_heartbeat: { kind: 'poll' } } } });
    polled.call('send_heartbeat', { service: 'web' }, 'ok');
    expect(polled.check('send_heartbeat', { service: 'web' }).allowed).toBe(true);
    const allowed = new Agent({
      policy: { tools: { send_certificate: { detectors: { duplicateEffect: { enabled: false } } } } },
    });
    allowed.call('send_certificate', { user_id: 'mia_li_3668', amount: 50 }, 'Certificate sent');
    expect(allowed.check('send_certificate', { user_id: 'mia_li_3668', amount: 50 }).allowed).toBe(true);
  });

  it('does not block a question about sending asked again after something else was done', () => {
    const agent = new Agent();
    agent.call('can_send_mms', {}, 'Your messaging app cannot send MMS messages.');
    agent.call(
      'grant_app_permission',
      { app_name: 'messaging', permission: 'storage' },
      "Permission 'storage' granted to messaging.",
    );
    expect(agent.check('can_send_mms', {}).allowed).toBe(true);
  });

  it('does not block reads or whole-file writes repeated with the same arguments', () => {
    const agent = new Agent();
    const details = { reservation_id: 'HATHAT' };
    agent.call('get_reservation_details', details, BOOKED);
    expect(agent.check('get_reservation_details', details).allowed).toBe(true);
    const write = { path: 'notes/booking.md', content: 'HATHAT confirmed\n' };
    agent.call('write_file', write, 'Wrote notes/booking.md');
    expect(agent.check('write_file', write).allowed).toBe(true);
  });
});
