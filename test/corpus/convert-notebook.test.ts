import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertReActNotebook,
  notebookRunPrefix,
  notebookText,
  printedRuns,
} from '../../scripts/corpus/convert-notebook.js';
import { MAX_LOG_CHARS } from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'WebShop.ipynb',
  licence: 'MIT',
  agent: 'ReAct',
});

/** Two WebShop runs as the notebook prints them, the second printed twice (its cell was run again). */
const SHOP_RUN = [
  '-----------------',
  '0',
  'Action: reset',
  'Observation: ',
  'Webshop ',
  'Instruction:  ',
  'i need a long clip-in hair extension, and price lower than 20.00 dollars ',
  '[Search] ',
  '',
  'Action: search[long clip-in hair extension]',
  'Observation: ',
  '[Back to Search] ',
  'Page 1 (Total results: 50) ',
  '[B08H5DCD65] ',
  '',
  'Action: think[B08H5DCD65 is cheap. I can check it.]',
  'Observation: OK.',
  '',
  'Action: click[B08H5DCD65]',
  'Observation: Invalid action!',
  '',
  '1 0.0 0.0 0.0',
  '-------------',
].join('\n');
const FEVER_RUN = [
  '3687 Claim: Paramore is not from Tennessee.',
  'Thought 1: I should search for Paramore.',
  'Action 1: Search[Paramore]',
  'Observation 1: Paramore is an American rock band from Franklin, Tennessee.',
  'Action 2: Finish[REFUTES]',
  'Observation 2: Episode finished, reward = 1',
  '',
  "{'steps': 2, 'answer': 'REFUTES', 'gt_answer': 'REFUTES', 'question_idx': 3687, 'em': 1, 'reward': 1, 'f1': 1} ",
  '',
  '1 1 1.0 4.081380128860474',
  '-----------',
].join('\n');

function notebook(...outputs: string[]): string {
  return JSON.stringify({
    cells: [
      { cell_type: 'markdown', source: ['# ReAct'] },
      {
        cell_type: 'code',
        source: ['run()'],
        outputs: outputs.map((output) => ({
          output_type: 'stream',
          name: 'stdout',
          text: output.split(/(?<=\n)/),
        })),
      },
    ],
  });
}

describe('ReAct runs printed by a notebook', () => {
  it('reads the printed text of every cell, output after output', () => {
    expect(notebookText(notebook('a\n', 'b\n'))).toBe('a\nb\n');
  });

  it('parts the printed text into runs at lines of dashes, keeping only stretches with actions', () => {
    expect(printedRuns(`${SHOP_RUN}\n${FEVER_RUN}`)).toHaveLength(2);
    expect(printedRuns('-----\nno actions here\n-----')).toEqual([]);
  });

  it('leaves out the harness reset and the agent thoughts, and reads an invalid action as a failure', () => {
    const [run] = convertReActNotebook(notebook(SHOP_RUN), SOURCE, 'react-webshop', 'WebShop');
    expect(run?.name).toBe('react-webshop-0000');
    expect(
      callsOf(run?.events ?? []).map((call) => [call.tool, call.args.input, call.result?.isError === true]),
    ).toEqual([
      ['search', 'long clip-in hair extension', false],
      ['click', 'B08H5DCD65', true],
    ]);
  });

  it('keeps the score the harness prints after a run out of the last observation', () => {
    const [run] = convertReActNotebook(
      notebook(FEVER_RUN),
      { ...SOURCE, path: 'FEVER.ipynb' },
      'react-fever',
      'FEVER',
    );
    expect(run?.name).toBe('react-fever-3687');
    expect(callsOf(run?.events ?? []).at(-1)?.result).toEqual({ content: 'Episode finished, reward = 1' });
  });

  it('reads a run printed twice once', () => {
    expect(
      convertReActNotebook(notebook(SHOP_RUN, SHOP_RUN), SOURCE, 'react-webshop', 'WebShop'),
    ).toHaveLength(1);
  });

  it('names two different runs of one task apart', () => {
    const retried = SHOP_RUN.replace('click[B08H5DCD65]', 'click[B09QQLDJ93]');
    const runs = convertReActNotebook(notebook(SHOP_RUN, retried), SOURCE, 'react-webshop', 'WebShop');
    expect(runs.map((run) => run.name)).toEqual(['react-webshop-0000', 'react-webshop-0000-2']);
  });

  it('names the runs of a notebook named after its task and a run set after that set, so one task run in two notebooks keeps two names', () => {
    const names = (stem: string) =>
      convertReActNotebook(
        notebook(SHOP_RUN),
        SOURCE,
        notebookRunPrefix('brittleness-webshop', stem),
        stem,
      ).map((run) => run.name);
    expect(names('WebShop_llama')).toEqual(['brittleness-webshop-llama-0000']);
    expect(names('WebShop_instruct')).toEqual(['brittleness-webshop-instruct-0000']);
  });

  it('names the runs of a notebook named after its task alone after the source', () => {
    expect(notebookRunPrefix('react-webshop', 'WebShop')).toBe('react-webshop');
    expect(notebookRunPrefix('react-fever', 'FEVER')).toBe('react-fever');
  });

  it('refuses what is not a notebook, and a file too long to be one', () => {
    expect(() => convertReActNotebook('[1]', SOURCE, 'react-webshop', 'WebShop')).toThrow(
      /not a Jupyter notebook/,
    );
    expect(() =>
      convertReActNotebook(`"${'x'.repeat(MAX_LOG_CHARS)}"`, SOURCE, 'react-webshop', 'WebShop'),
    ).toThrow(/longer than/);
  });

  it('converts any printed text without throwing, each run named uniquely and opened by its meta event', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '-----',
        'Action: reset',
        'Observation: OK.',
        'Action: click[Buy Now]',
        'Action 2: Search[x]',
        '12',
      ),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const runs = convertReActNotebook(notebook(lines.join('\n')), SOURCE, 'p', 'WebShop');
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
