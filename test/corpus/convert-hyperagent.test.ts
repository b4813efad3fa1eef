import { describe, expect, it } from 'vitest';
import { convertHyperAgentRecords, scratchpadCalls } from '../../scripts/corpus/convert-hyperagent.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({ licence: 'Apache-2.0', agent: 'test agent' });
const EXECUTOR =
  'You are an expert in running bash commandlines. Use a json blob with "action" and "action_input".';
const OBJECTIVE = 'Objective: run the tests of the beam module';

function step(action: string, input: unknown, observation: string): string {
  return `Thought: next step.\nAction:\n\`\`\`\n${JSON.stringify({ action, action_input: input })}\n\`\`\`\n\n\nObservation: ${observation}\n`;
}

function record(path: string, steps: string[], agent = EXECUTOR) {
  const human = `${OBJECTIVE}\nAgent scratchpad:\nThis was your previous work (but I haven't seen any of it! I only see what you return as final answer):\n${steps.join('')}Thought:`;
  return {
    path,
    content: JSON.stringify({ system_prompt: agent, human_message: human, system_response: 'Action: ...' }),
  };
}

const FIRST = step(
  'terminal',
  'python3 -m venv env',
  "Error during command execution: 'FieldInfo' object has no attribute 'run'",
);
const SECOND = step(
  'open_file',
  { relative_file_path: 'sympy/physics/continuum_mechanics/beam.py', keywords: ['shear_force'] },
  'The content of sympy/physics/continuum_mechanics/beam.py is: ...',
);

describe('HyperAgent records', () => {
  it('reads each action of a scratchpad with the observation that answers it, marking error observations failed', () => {
    expect(scratchpadCalls(`${FIRST}${SECOND}Thought:`)).toEqual([
      {
        type: 'call',
        tool: 'terminal',
        args: { command: 'python3 -m venv env' },
        result: {
          isError: true,
          content: "Error during command execution: 'FieldInfo' object has no attribute 'run'",
        },
      },
      {
        type: 'call',
        tool: 'open_file',
        args: { relative_file_path: 'sympy/physics/continuum_mechanics/beam.py', keywords: ['shear_force'] },
        result: { content: 'The content of sympy/physics/continuum_mechanics/beam.py is: ...' },
      },
    ]);
  });

  it('keeps only the longest scratchpad of a chain, so no step is counted twice', () => {
    const runs = convertHyperAgentRecords(
      [
        record('data/agent_trajectories/nav/2_instance.json', [FIRST, SECOND]),
        record('data/agent_trajectories/nav/1_instance.json', [FIRST]),
      ],
      SOURCE,
      'hyperagent',
    );
    expect(runs.map((run) => run.name)).toEqual(['hyperagent-nav_2_instance']);
    expect(callsOf(runs[0]?.events ?? []).map((call) => call.tool)).toEqual(['terminal', 'open_file']);
  });

  it('keeps the chains of different agents on one objective apart', () => {
    const runs = convertHyperAgentRecords(
      [
        record('data/agent_trajectories/1_instance.json', [FIRST]),
        record('data/agent_trajectories/2_instance.json', [FIRST], 'You are an expert in code navigation.'),
      ],
      SOURCE,
      'hyperagent',
    );
    expect(runs).toHaveLength(2);
  });

  it('leaves out a final answer and a record without a scratchpad', () => {
    const final = step('Final Answer', 'done', '');
    const runs = convertHyperAgentRecords(
      [
        record('data/agent_trajectories/1_instance.json', [SECOND, final]),
        {
          path: 'data/agent_trajectories/0_instance.json',
          content: JSON.stringify({ system_prompt: EXECUTOR, human_message: OBJECTIVE, system_response: '' }),
        },
      ],
      SOURCE,
      'hyperagent',
    );
    expect(runs).toHaveLength(1);
    expect(callsOf(runs[0]?.events ?? []).map((call) => call.tool)).toEqual(['open_file']);
  });
});
