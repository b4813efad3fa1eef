import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rejectedArgumentNames, unavailableValues } from '../../../src/adapters/tool-call/unavailable.js';

const CHANGE = {
  reservation_id: 'XEWRD9',
  cabin: 'economy',
  flights: [
    { flight_number: 'HAT217', date: '2024-05-18' },
    { flight_number: 'HAT223', date: '2024-05-14' },
  ],
  payment_id: 'gift_card_4643416',
};

describe('unavailableValues', () => {
  it('names the argument values an error says are not available', () => {
    expect(unavailableValues('Error: flight HAT217 not available on date 2024-05-18', CHANGE)).toEqual([
      'HAT217',
      '2024-05-18',
    ]);
  });

  it('names a payment method the error says was not found', () => {
    const booking = {
      user_id: 'mia_li_3668',
      payment_methods: [{ payment_id: 'certificate_3318402', amount: 250 }],
    };
    expect(unavailableValues('Error: payment method certificate_3318402 not found', booking)).toEqual([
      'certificate_3318402',
    ]);
  });

  it('names nothing when the error is about a quantity rather than existence', () => {
    expect(unavailableValues('Error: not enough seats on flight HAT223', CHANGE)).toBeUndefined();
  });

  it('names nothing when the error quotes none of the arguments', () => {
    expect(unavailableValues('Error: user not found', CHANGE)).toBeUndefined();
  });

  it('does not take a value that is only part of a longer word', () => {
    expect(unavailableValues('Error: flight HAT2171 not available', CHANGE)).toBeUndefined();
  });

  it('reads only the first line, where the verdict is', () => {
    const text = 'Error: payment amount does not add up\nflight HAT217 not available on date 2024-05-18';
    expect(unavailableValues(text, CHANGE)).toBeUndefined();
  });

  it('never throws and names only values of the arguments, whatever the text and arguments', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.jsonValue({ maxDepth: 5 }), (text, value) => {
        const args = { value };
        const named = unavailableValues(text, args) ?? [];
        const serialised = JSON.stringify(args);
        for (const name of named) expect(serialised).toContain(name);
        expect(named.length).toBeLessThanOrEqual(4);
      }),
    );
  });
});

describe('rejectedArgumentNames', () => {
  const args = { owner: 'acme', repo: 'billing', title: 'Retry webhooks', task_progress: '- [ ] file it' };

  it("reads zod's unrecognized key as an argument the tool does not take", () => {
    const text = `MCP error -32602: Invalid arguments for tool create_issue: [\n  {\n    "code": "unrecognized_keys",\n    "keys": [\n      "task_progress"\n    ],\n    "message": "Unrecognized key(s) in object: 'task_progress'"\n  }\n]`;
    expect(rejectedArgumentNames(text, args)).toEqual(['task_progress']);
  });

  it("reads jsonschema's additional property as an argument the tool does not take", () => {
    expect(
      rejectedArgumentNames("Additional properties are not allowed ('task_progress' was unexpected)", args),
    ).toEqual(['task_progress']);
  });

  it("reads Python's unexpected keyword argument and pydantic's extra input", () => {
    expect(
      rejectedArgumentNames(
        "TypeError: create_issue() got an unexpected keyword argument 'task_progress'",
        args,
      ),
    ).toEqual(['task_progress']);
    expect(
      rejectedArgumentNames(
        '1 validation error for CreateIssue\ntask_progress\n  Extra inputs are not permitted [type=extra_forbidden]',
        args,
      ),
    ).toEqual(['task_progress']);
  });

  it('names no argument when the error only quotes one without refusing it', () => {
    expect(
      rejectedArgumentNames("Validation failed: 'title' must be at most 256 characters", args),
    ).toBeUndefined();
    expect(rejectedArgumentNames("Unknown repository 'billing'", args)).toBeUndefined();
    expect(rejectedArgumentNames("Invalid value 'urgent' for 'title': unknown label", args)).toBeUndefined();
    expect(
      rejectedArgumentNames("invalid argument 'title': must be at most 256 characters", args),
    ).toBeUndefined();
  });
});
