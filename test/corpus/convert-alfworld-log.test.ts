import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alfworldLogModel, convertAlfworldLog } from '../../scripts/corpus/convert-alfworld-log.js';
import { MAX_LOG_CHARS } from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'ALFWorld_test/slurm-8488556.out';
const SOURCE = pinnedSource({ path: PATH, licence: 'MIT', agent: 'A ReAct agent on ALFWorld' });

/** A batch job's log as it prints two games: the prompt it gave the model, then the game as played. */
const LOG = [
  '',
  'Model name: mistralai/Mistral-7B-v0.3',
  'Initializing AlfredTWEnv...',
  'Evaluating with 134 games',
  'look_at_obj_in_light-CD-None-DeskLamp-308/trial_T20190908_141958_463362',
  'look_at_obj examine',
  'You are in the middle of a room. Looking quickly around you, you see a desk 1, and a drawer 1.',
  'Your task is to: examine the cd with the desklamp.',
  '-----1st LLM output start-----',
  '> go to drawer 1',
  'The drawer 1 is closed.',
  '-----1st LLM output end-----',
  'Act 1: think: To solve the task, I need to find and take a cd.',
  'Obs 1: OK.',
  'Setting `pad_token_id` to `eos_token_id`:2 for open-end generation.',
  'Act 2: go to desk 1',
  'Obs 2: On the desk 1, you see a cd 3, and a desklamp 1.',
  'Act 3: take cd 3 from drawer 1',
  'Obs 3: Nothing happens.',
  '1 r 0 rs [0, 0, 0, 0, 0, 0] cnts [0, 0, 0, 0, 1, 0] sum(rs)/sum(cnts) 0.0',
  '------------',
  'pick_cool_then_place_in_recep-Pan-None-CounterTop-10/trial_T20190908_114656_768805',
  'Act 1: go to stoveburner 1',
  'Obs 1: On the stoveburner 1, you see a pan 1.',
  '2 r True rs [0, 0, 0, 1, 0, 0] cnts [0, 0, 0, 1, 1, 0] sum(rs)/sum(cnts) 0.5',
].join('\n');

describe('ALFWorld batch job logs', () => {
  it('reads the model from the first line that names it, without the job’s other settings', () => {
    expect(alfworldLogModel(LOG)).toBe('mistralai/Mistral-7B-v0.3');
    expect(alfworldLogModel('*Model name: google/gemma-2-9b, Max. context len.: 8192\n')).toBe(
      'google/gemma-2-9b',
    );
    expect(alfworldLogModel('no model here')).toBe('');
  });

  it('makes one run of each game, its thoughts and the prompt’s examples left out, a command that did nothing failing', () => {
    const runs = convertAlfworldLog(LOG, SOURCE, 'sala-alfworld');
    expect(runs.map((run) => run.name)).toEqual(['sala-alfworld-8488556-001', 'sala-alfworld-8488556-002']);
    expect(callsOf(runs[0]?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'go_to',
        args: { input: 'desk 1' },
        result: { content: 'On the desk 1, you see a cd 3, and a desklamp 1.' },
      },
      {
        type: 'call',
        tool: 'take',
        args: { input: 'cd 3 from drawer 1' },
        result: { isError: true, content: 'Nothing happens.' },
      },
    ]);
  });

  it('says in each run’s description which model played which game, and whether it was solved', () => {
    const [first, second] = convertAlfworldLog(LOG, SOURCE, 'sala-alfworld');
    const described = (run: typeof first) =>
      (run?.events[0] as { description?: string } | undefined)?.description;
    expect(described(first)).toContain('(mistralai/Mistral-7B-v0.3), job 8488556, game 1');
    expect(described(first)).toContain('not solved');
    expect(described(second)).toContain('pick_cool_then_place_in_recep-Pan-None-CounterTop-10');
    expect(described(second)).toMatch(/, solved\./);
  });

  it('holds no run for a job that failed before its first game', () => {
    const failed =
      'Model name: google/gemma-2-27b\nTraceback (most recent call last):\nOSError: You are trying to access a gated repo.\n';
    expect(convertAlfworldLog(failed, SOURCE, 'sala-alfworld')).toEqual([]);
  });

  it('refuses a file too long to be a log', () => {
    expect(() => convertAlfworldLog('x'.repeat(MAX_LOG_CHARS + 1), SOURCE, 'k')).toThrow(/longer than/);
  });

  it('converts any text without throwing, each run uniquely named and opened by its description', () => {
    const line = fc.oneof(
      fc.string(),
      fc.constant('pick_and_place_simple-KeyChain-None-Drawer-208/trial_T20190909_013444_420195'),
      fc.nat({ max: 60 }).map((step) => `Act ${step}: open drawer ${step}`),
      fc.nat({ max: 60 }).map((step) => `Obs ${step}: Nothing happens.`),
      fc.constant('3 r False rs [0] cnts [1] sum(rs)/sum(cnts) 0.0'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const runs = convertAlfworldLog(lines.join('\n'), SOURCE, 'k');
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) {
          expect(run.events[0]?.type).toBe('meta');
          expect(callsOf(run.events).length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
