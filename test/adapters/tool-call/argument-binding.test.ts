import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolRefusedItsArguments } from '../../../src/adapters/tool-call/argument-binding.js';
import { failureOf } from './helpers.js';

const UNEXPECTED =
  'Error executing tool \'list_tables\' with arguments {"schema": "public"}: TypeError: list_tables() got an unexpected keyword argument \'schema\'';

describe('a tool function refusing the arguments it was called with', () => {
  it('is the agent’s, though the framework frames it as the tool’s own error', () => {
    expect(failureOf('list_tables', { schema: 'public' }, UNEXPECTED)?.blame).toBe('agent_failure');
  });

  it('is read in each of Python’s words for arguments a function does not take', () => {
    const tool = 'get_order';
    for (const words of [
      "get_order() missing 1 required positional argument: 'order_id'",
      'get_order() takes 1 positional argument but 2 were given',
      "get_order() got multiple values for argument 'order_id'",
    ]) {
      expect(toolRefusedItsArguments(`TypeError: ${words}`, tool), words).toBe(true);
    }
  });

  it('knows a tool class by its entry point and a server’s tool by its own name', () => {
    expect(
      toolRefusedItsArguments(
        "TypeError: WeatherTool.forward() got an unexpected keyword argument 'city'",
        'weather',
      ),
    ).toBe(true);
    expect(
      toolRefusedItsArguments(
        "TypeError: search_issues() got an unexpected keyword argument 'label'",
        'mcp__tracker__search_issues',
      ),
    ).toBe(true);
  });

  it('leaves the same words about another function under the tool to the catalogue', () => {
    const install =
      "Error executing tool 'ask_model' with arguments {}: TypeError: Client.__init__() got an unexpected keyword argument 'proxies'";
    expect(toolRefusedItsArguments(install, 'ask_model')).toBe(false);
    expect(failureOf('ask_model', {}, install)?.blame).not.toBe('agent_failure');
  });

  it('answers for any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), fc.string({ maxLength: 40 }), (text, tool) => {
        expect(typeof toolRefusedItsArguments(text, tool)).toBe('boolean');
      }),
    );
  });
});
