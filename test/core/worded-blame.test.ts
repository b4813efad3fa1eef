import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/**
 * Failures no rule of the catalogue recognises, from a project tracker's tool and a catalogue
 * search: their blame is read from the kinds of their words (see
 * `src/adapters/tool-call/evidence-words.ts`), and proves no more than an unknown blame does.
 */
const labelRefused = (label: string) => ({
  text: `Cannot apply update: label "${label}" does not match any label of this board`,
  isError: true,
});
const poolFull = { text: 'Search worker pool is at capacity; the request was dropped', isError: true };

describe('a failure blamed by the kinds of its words', () => {
  it('blocks the same call only once it failed alike twice, as a failure of unknown blame', () => {
    const agent = new Agent();
    const refused = {
      text: 'Cannot apply update: the label does not match any label of this board',
      isError: true,
    };
    expect(agent.repeat(3, 'tracker_update', { id: 'T-12', label: 'frontend-v2' }, refused)).toEqual([
      'allow',
      'allow',
      'block',
    ]);
  });

  it('blocks the same call on its second attempt when the failure quotes the value it was given', () => {
    const agent = new Agent();
    const args = { id: 'T-12', label: 'frontend-v2' };
    expect(agent.repeat(2, 'tracker_update', args, labelRefused('frontend-v2'))).toEqual(['allow', 'block']);
  });

  it('never counts as a guess: other values refused alike are not blocked', () => {
    const agent = new Agent();
    const labels = ['frontend-v2', 'front-end', 'ui', 'web', 'client', 'frontend2', 'fe'];
    const verdicts = labels.map(
      (label, index) =>
        agent.call('tracker_update', { id: `T-${index}`, label }, labelRefused(label)).check.verdict,
    );
    expect(verdicts).not.toContain('block');
  });

  it('never learns a ban from one its words blame on the environment', () => {
    const agent = new Agent();
    const verdicts = agent.repeat(5, 'catalog_search', { query: 'desk lamps' }, poolFull);
    expect(verdicts).not.toContain('block');
  });
});
