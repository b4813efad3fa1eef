/** What each verdict rule stands for, in a few words, for reports written for people. */

const RULE_MEANINGS: Readonly<Record<string, string>> = {
  'identical-failure': 'a call that already failed, repeated unchanged',
  'repeated-refusal': 'the same refused call proposed a third time in a row (the run is halted)',
  'missing-target': 'acting on something that does not exist',
  'existing-target': 'creating something that already exists',
  'target-ban': 'acting again on a target where the same action failed',
  'banned-strategy': 'an approach that failed on several different targets',
  'parameter-ban': 'parameter values known to fail',
  'radius-limit': 'one call acting on too many targets at once',
  'identical-result': 'a call that keeps returning the same result',
  'non-advancing': 'a tool that keeps returning nothing new',
  'error-streak': 'the same error again and again with varying arguments',
  cycle: 'a sequence of calls going round in a cycle',
  poll: 'polling something that is not changing',
  'creation-rate': 'creating many things of one shape in a burst',
  'tool-health': 'a tool whose service keeps failing (it is paused to recover)',
  'unseen-creation': 'using a file whose creation the tool reported but that did not appear',
  'blind-edit': 'guessing again at the text of a file never read',
  'edit-streak': 'edit after edit of one file failing, without reading the file again',
  'unavailable-value':
    'asking again for something the tool said is not available, or passing again an argument it does not take',
  'respelled-command': 'a command that failed the same way spelled twice, spelled a third way',
  'numbered-copy': "editing with text copied along with a viewer's line numbers",
  'absent-text': 'an edit looking for text that is not in the file as last read',
  'state-cycle': 'an undo that brings files back to where a command already failed',
  'duplicate-effect': 'a booking, message or payment that already went through, asked for twice',
  'session-cycle':
    'a session started again the same way and fed the same calls, going where two before it went',
  'compaction-cycle': 're-reading the same unchanged files after each context compaction, with no progress',
  revisit: 'asking again a question already answered, with nothing changed since',
  convergence: 'no progress for too long',
  budget_exceeded: 'the session used up its budget',
  budget_reserve: 'the session reached its budget reserve',
  max_steps: 'the run used all the steps it was given',
  timed_out: 'the run used all the time it was given',
  halted: 'the run was halted earlier',
};

/**
 * Rules that fire only on evidence of an earlier failure of the same call, target, approach or
 * parameters: a call they block would have repeated a known failure.
 */
const KNOWN_FAILURE_RULES: ReadonlySet<string> = new Set([
  'identical-failure',
  'missing-target',
  'existing-target',
  'target-ban',
  'banned-strategy',
  'parameter-ban',
  'respelled-command',
]);

export function ruleMeaning(rule: string): string | undefined {
  // Own names only: a journal naming the rule `constructor` must not get Object's.
  return Object.hasOwn(RULE_MEANINGS, rule) ? RULE_MEANINGS[rule] : undefined;
}

export function blocksKnownFailure(rule: string | undefined): boolean {
  return rule !== undefined && KNOWN_FAILURE_RULES.has(rule);
}
