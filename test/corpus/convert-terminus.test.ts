import { describe, expect, it } from 'vitest';
import { convertTerminusTrial, terminusTrialOf } from '../../scripts/corpus/convert-terminus.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const TRIAL = 'runs/maze/maze.1-of-1';
const SOURCE = pinnedSource({ path: TRIAL, licence: 'MIT', agent: 'Terminus' });
const response = (...keystrokes: string[]) =>
  JSON.stringify({
    state_analysis: '…',
    explanation: '…',
    commands: keystrokes.map((keys) => ({ keystrokes: keys, is_blocking: false, timeout_sec: 3 })),
    is_task_complete: false,
  });

describe('Terminus trials', () => {
  it("answers each episode's keystrokes with the pane the next episode was shown", () => {
    const files = [
      { path: `${TRIAL}/agent-logs/episode-1/prompt.txt`, content: '> move N\nhit wall\n>\n\n\n\n' },
      { path: `${TRIAL}/agent-logs/episode-0/response.json`, content: response('./maze_game.sh\n') },
      { path: `${TRIAL}/agent-logs/episode-0/prompt.txt`, content: 'You are an AI assistant…' },
      { path: `${TRIAL}/agent-logs/episode-1/response.json`, content: response('move N\n', 'move S\n') },
    ];
    const run = convertTerminusTrial(files, SOURCE, 'terminus-maze', 'Terminus run maze');
    expect(run.name).toBe('terminus-maze');
    expect(callsOf(run.events)).toEqual([
      {
        type: 'call',
        tool: 'terminal',
        args: { keystrokes: './maze_game.sh\n' },
        result: { content: '> move N\nhit wall\n>' },
      },
      { type: 'call', tool: 'terminal', args: { keystrokes: 'move N\nmove S\n' } },
    ]);
  });

  it("groups a trial's files by the directory above its agent logs", () => {
    expect(terminusTrialOf(`${TRIAL}/agent-logs/episode-12/response.json`)).toBe(TRIAL);
    expect(terminusTrialOf(`${TRIAL}/results.json`)).toBeUndefined();
  });
});
