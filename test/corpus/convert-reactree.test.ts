import { describe, expect, it } from 'vitest';
import { convertReacTreeRun, reacTreeCall, reacTreeCalls } from '../../scripts/corpus/convert-reactree.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'resource/alfred/collect_llm/react_wm/look_at_obj_in_light-Mug-None-DeskLamp-308_trial_T20190908_201421_757646_ann_0.txt',
  licence: 'no licence file',
  agent: "ReAcTree's ReAct agent on ALFRED's household tasks",
});

/** The start of a run as the collection writes it: thoughts answered `OK.`, commands answered by one line. */
const RUN = [
  'Your task is to: look at a mug under the desk lamp',
  'You are in the house, and you arrive at the bedroom, Looking quickly around the room, you see Shelf (1, 2), Drawer (1), Desk (1), Bed (1).',
  'Think: First, I need to recall location of the mug.',
  'OK.',
  'Act: recall location of Mug',
  'You have not seen Mug before.',
  'Act: go to Drawer (1)',
  'You arrive at Drawer (1). You see Desk (1). Drawer (1) is closed.',
  'Act: open Drawer (1)',
  'The Drawer (1) is open failed.',
  'Act: pick up Mug (1)',
  '',
  'Act: turn on DeskLamp (1)',
  'The DeskLamp (1) is not close to you.',
  'Think: I cannot do it.',
  'OK.',
  'Act: failure',
  '',
].join('\n');

describe("ReAcTree's household runs", () => {
  it('reads a command as a call of its verb, the verbs of two words joined', () => {
    expect(reacTreeCall('pick up AlarmClock (1)')).toEqual({
      tool: 'pick_up',
      args: { input: 'AlarmClock (1)' },
    });
    expect(reacTreeCall('recall location of DeskLamp')).toEqual({
      tool: 'recall_location_of',
      args: { input: 'DeskLamp' },
    });
    expect(reacTreeCall('dance')).toEqual({ tool: 'command', args: { input: 'dance' } });
  });

  it('answers each command with the line after it, and leaves out thoughts and the final verdict', () => {
    const calls = reacTreeCalls(RUN, SOURCE);
    expect(calls.map((call) => [call.tool, call.result?.content])).toEqual([
      ['recall_location_of', 'You have not seen Mug before.'],
      ['go_to', 'You arrive at Drawer (1). You see Desk (1). Drawer (1) is closed.'],
      ['open', 'The Drawer (1) is open failed.'],
      ['pick_up', ''],
      ['turn_on', 'The DeskLamp (1) is not close to you.'],
    ]);
  });

  it('reads what the simulator refused as failures, and an empty memory as an answer', () => {
    const runs = convertReacTreeRun(RUN, SOURCE, 'reactree-alfred');
    expect(runs.map((run) => run.name)).toEqual([
      'reactree-alfred-look_at_obj_in_light-Mug-None-DeskLamp-308_trial_T20190908_201421_757646_ann_0',
    ]);
    expect(callsOf(runs[0]?.events ?? []).map((call) => call.result?.isError === true)).toEqual([
      false,
      false,
      true,
      false,
      true,
    ]);
  });

  it('makes no run of a file that sent no command', () => {
    expect(
      convertReacTreeRun('Your task is to: put a mug on the desk\nThink: hm.\nOK.\n', SOURCE, 'r'),
    ).toEqual([]);
  });
});
