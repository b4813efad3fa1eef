import { describe, expect, it } from 'vitest';
import { constraintToText, parseConstraintText } from '../../src/stores/schema.js';
import { missingFile } from './sample-state.js';

const booking = missingFile('user/mia_li_3668', Date.UTC(2026, 2, 2), {
  id: 'call:book_reservation',
  scope: 'call',
  signature: 'unknown_error',
  actionClass: 'api_call',
  tool: 'book_reservation',
  blocksKinds: undefined,
  dependsOnService: 'airline',
});

describe('a ban on a call to an outside service, as a row', () => {
  it('keeps the service it depends on', () => {
    expect(parseConstraintText(constraintToText(booking))?.dependsOnService).toBe('airline');
  });

  it('is refused when its service is longer than any server name', () => {
    const hostile = { ...booking, dependsOnService: 'x'.repeat(10_000) };
    expect(parseConstraintText(constraintToText(hostile))).toBeUndefined();
  });
});

describe('a ban on a failed edit, as a row', () => {
  const edit = missingFile('src/orders/parse.ts', Date.UTC(2026, 2, 2), {
    id: 'call:Edit',
    scope: 'call',
    signature: 'text_not_found',
    actionClass: 'file_edit',
    tool: 'Edit',
  });

  it('keeps that a full read of its file gives it one retry', () => {
    const row = constraintToText({ ...edit, curedByReading: true });
    expect(parseConstraintText(row)?.curedByReading).toBe(true);
  });

  it('is refused when what gives it a retry is anything but true or false', () => {
    const row = JSON.stringify({ ...JSON.parse(constraintToText(edit)), curedByReading: 'yes' });
    expect(parseConstraintText(row)).toBeUndefined();
  });
});

describe('a ban on a failing command not yet corroborated, as a row', () => {
  const command = missingFile('node scripts/seed.js', Date.UTC(2026, 2, 2), {
    id: 'call:Bash',
    scope: 'call',
    signature: 'validation_error',
    actionClass: 'shell_exec',
    tool: 'Bash',
  });
  const answered = (answerWithoutNumbers: string) => ({
    ...command,
    evidence: { ...command.evidence, failures: 1, answer: '9f86d081884c7d65', answerWithoutNumbers },
  });

  it('keeps what its failure answered without its numbers', () => {
    const row = constraintToText(answered('2c26b46b68ffc68f'));
    expect(parseConstraintText(row)?.evidence.answerWithoutNumbers).toBe('2c26b46b68ffc68f');
  });

  it('is refused when that answer is longer than any digest', () => {
    expect(parseConstraintText(constraintToText(answered('f'.repeat(10_000))))).toBeUndefined();
  });
});
