import { describe, expect, it } from 'vitest';
import { type LabelRecord, labelsFileText, readManifest } from '../../scripts/corpus/build.js';

const manifest = readManifest();
const sourceOf = (id: string) => {
  const source = manifest.find((candidate) => candidate.id === id);
  if (!source) throw new Error(`${id} is not in the manifest`);
  return source;
};

function record(source: string, trace: string, calls: number): LabelRecord {
  const { half, agent } = sourceOf(source);
  return { half, source, agent, trace, calls, justified: [], false: [], loops: [] };
}

const line = (value: LabelRecord) => JSON.stringify(value);

describe('the labels file a corpus build writes', () => {
  it('keeps the labels of the sources the build left out, and replaces those it labelled', () => {
    const kept = [
      line(record('tau-airline', 'tau-airline-0.jsonl', 7)),
      line(record('coder', 'coder-old.jsonl', 30)),
    ].join('\n');

    const text = labelsFileText([record('coder', 'coder-new.jsonl', 31)], [sourceOf('tau-airline')], kept);

    expect(
      text
        .trim()
        .split('\n')
        .map((entry) => JSON.parse(entry).trace),
    ).toEqual(['tau-airline-0.jsonl', 'coder-new.jsonl']);
  });

  it('writes the sources in the manifest’s order whatever order they were labelled in', () => {
    const text = labelsFileText(
      [record('coder', 'coder-1.jsonl', 3), record('tau-airline', 'tau-airline-1.jsonl', 4)],
      [],
      '',
    );

    expect(
      text
        .trim()
        .split('\n')
        .map((entry) => JSON.parse(entry).source),
    ).toEqual(['tau-airline', 'coder']);
  });
});
