import { describe, expect, it } from 'vitest';
import { relabelText } from '../../scripts/corpus/relabel.js';

describe('labelling a built half again from its traces', () => {
  it("keeps each run's half, source and agent and labels it from its trace", () => {
    const failing = { isError: true, content: 'FAILED tests/test_api.py::test_create - assert 500 == 201' };
    const trace = [
      { type: 'call', tool: 'Bash', args: { command: 'pytest tests/test_api.py' }, result: failing },
      { type: 'call', tool: 'Bash', args: { command: 'pytest tests/test_api.py' }, result: failing },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n');
    const old = `${JSON.stringify({ half: 'design', source: 'shop', agent: 'Claude Code', trace: 'a.jsonl', calls: 2, justified: [], false: [], loops: [] })}\n`;
    const [line] = relabelText(old, () => trace)
      .trim()
      .split('\n');
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      half: 'design',
      source: 'shop',
      agent: 'Claude Code',
      trace: 'a.jsonl',
      calls: 2,
      justified: [{ step: 2, rule: 1 }],
    });
  });
});
