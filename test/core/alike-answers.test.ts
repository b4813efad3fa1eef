import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersAlike } from '../../src/core/identity/index.js';

const failure = (id: string) => `Error: job failed to start (run ${id}), see the log for details`;

describe('answersAlike', () => {
  it('takes two answers that differ only in an id of letters alone written as ids are as one', () => {
    expect(answersAlike(failure('tok_vbgkfXbHNSFJRC'), failure('tok_pRluTgKJfPqHje'))).toBe(true);
  });

  it('tells apart answers whose differing words are lower-case letters alone, as a state that moved is', () => {
    const state = (word: string) => `Error: deployment web-frontend is still ${word}, try again later`;
    expect(answersAlike(state('pending'), state('running'))).toBe(false);
    expect(answersAlike(failure('evvkvxoskel'), failure('jjshgcvlntv'))).toBe(false);
  });

  it('takes an id a mask found in one answer and one of letters alone in the other as one', () => {
    expect(answersAlike(failure('ja61pf3nogt'), failure('evvkvxoskel'))).toBe(true);
  });

  it('takes an id masked in part in one answer and drawn from letters alone in the other as one', () => {
    const request = (id: string) => `Error: Unknown column 'players.id' in 'on clause' (x-request-id: ${id})`;
    expect(answersAlike(request('req_OX46W33ICPobsz'), request('req_vbgkfXbHNSFJRC'))).toBe(true);
  });

  it('tells apart answers whose differing words are short, as written words are', () => {
    const users = 'Error: relation users does not exist';
    expect(answersAlike(users, 'Error: relation items does not exist')).toBe(false);
  });

  it('tells apart answers whose differing words have other lengths and no number', () => {
    const customers = 'Error: relation customers does not exist';
    expect(answersAlike(customers, 'Error: relation invoices does not exist')).toBe(false);
  });

  it('tells apart answers that differ in more than two places', () => {
    const a = 'alpha bravoo charlie deltaa echooo foxtrot';
    const b = 'alpha brovaa chorlie deltoo echooo foxtrot';
    expect(answersAlike(a, b)).toBe(false);
  });

  it('tells apart answers whose differing words have other marks around them', () => {
    const unmarked = 'Error: job failed to start run evvkvxoskel, see the log for details';
    expect(answersAlike(failure('evvkvxoskel'), unmarked)).toBe(false);
  });

  it('compares nothing in answers of fewer than four words', () => {
    expect(answersAlike('failed evvkvxoskel', 'failed jjshgcvlntv')).toBe(false);
  });

  it('is symmetric and takes every answer of four words or more as alike with itself', () => {
    const words = fc.array(fc.stringMatching(/^[a-z#()<>]{1,12}$/), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(words, words, (a, b) => {
        const textA = a.join(' ');
        const textB = b.join(' ');
        expect(answersAlike(textA, textB)).toBe(answersAlike(textB, textA));
        if (a.length >= 4) expect(answersAlike(textA, textA)).toBe(true);
      }),
    );
  });

  it('answers long hostile texts without trouble', () => {
    const long = `${'(<<<<'.repeat(20_000)} x`;
    expect(answersAlike(long, `${long}y`)).toBe(false);
    const words = (last: string) => `one two three ${'<a'.repeat(400)}${last}`;
    expect(answersAlike(words('<b'), words('<c'))).toBe(false);
  });
});
