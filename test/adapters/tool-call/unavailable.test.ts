import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  missingOperands,
  rejectedArgumentNames,
  unavailableValues,
} from '../../../src/adapters/tool-call/unavailable.js';

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

const NPM_ETARGET = [
  'npm error code ETARGET',
  'npm error notarget No matching version found for @tanstack/react-query@6.4.2.',
  'npm error notarget In most cases you or one of your dependencies are requesting',
  "npm error notarget a package version that doesn't exist.",
  'npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2026-03-02T10_14_07_372Z-debug-0.log',
].join('\n');

describe('missingOperands', () => {
  it('names the package version npm found no match for, whatever the options around it', () => {
    expect(missingOperands(NPM_ETARGET, 'npm install --save @tanstack/react-query@6.4.2 --force')).toEqual([
      '@tanstack/react-query@6.4.2',
    ]);
  });

  it('names the pinned requirement pip found no distribution for', () => {
    const text = [
      'ERROR: Could not find a version that satisfies the requirement requests==9.31.0 (from versions: 0.2.0, 2.32.3)',
      'ERROR: No matching distribution found for requests==9.31.0',
    ].join('\n');
    expect(missingOperands(text, 'pip install --no-cache-dir requests==9.31.0')).toEqual([
      'requests==9.31.0',
    ]);
  });

  it('names the pod kubectl says was not found', () => {
    const text = 'Error from server (NotFound): pods "web-7f9c8d" not found';
    expect(missingOperands(text, 'kubectl delete pod web-7f9c8d --grace-period=0')).toEqual(['web-7f9c8d']);
  });

  it('names no word without a digit, which an error may hold by chance', () => {
    expect(
      missingOperands('E: Unable to locate package: left-pad not found', 'apt-get install left-pad'),
    ).toBeUndefined();
  });

  it('names no option, whatever the error says of it', () => {
    expect(missingOperands('tag v2.0 not found', 'docker build --tag=v2.0 .')).toBeUndefined();
  });

  it('names nothing when the line that says something is missing names none of the words', () => {
    const text = "Error: Cannot find module 'express'\nmodule express not found";
    expect(missingOperands(text, 'node server-2.js --port 8080')).toBeUndefined();
  });

  it('names nothing when the word appears only on a line that says nothing is missing', () => {
    const text = 'Building app-2.0.1\nerror: linker failed with exit code 1';
    expect(missingOperands(text, 'make app-2.0.1')).toBeUndefined();
  });

  it('never throws and names only words of the command line, whatever the text and command', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.string({ maxLength: 200 }), (text, command) => {
        const named = missingOperands(text, command) ?? [];
        for (const word of named) expect(command).toContain(word);
        expect(named.length).toBeLessThanOrEqual(4);
      }),
    );
  });

  it('finds what a generated command says is missing when its output says so', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{2,12}@[0-9]\.[0-9]{1,2}\.[0-9]{1,2}$/),
        fc.subarray(['--force', '--legacy-peer-deps', '--save', '--no-audit']),
        (spec, options) => {
          const text = `npm error notarget No matching version found for ${spec}.`;
          expect(missingOperands(text, ['npm', 'install', ...options, spec].join(' '))).toEqual([spec]);
        },
      ),
    );
  });
});
