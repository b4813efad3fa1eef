/**
 * Tools that put a question to the person at the keyboard and return their answer (a coding agent's
 * `ask the user` tool, a tool-server's `ask_human`). The answer is the user speaking: they may have
 * acted on the machine before giving it (upgraded a plan, started a server, signed in), as they may
 * before any message they write.
 */
import { readOncePerName } from './by-name.js';
import { nameReadings } from './tool-names.js';

/** Verbs of a name that asks for something. */
const ASK = new Set(['ask', 'request']);
/** Words saying that a person is asked, or what kind of answer they give. */
const PERSON = new Set(['user', 'human', 'person', 'operator']);
/**
 * Words that make `ask` a question to a person without naming one (`ask_followup_question`). A bare
 * `question` does not: a documentation service's `ask_question` answers from its pages.
 */
const QUESTION = new Set(['followup', 'clarification']);

/**
 * A tool whose name says it asks a person (`AskUserQuestion`, `ask_user`, `ask_followup_question`,
 * `request_user_input`, `ask_human`): an asking verb with a word for a person, or `ask` with a word for
 * a follow-up question.
 */
export const asksPersonByName = readOncePerName((tool) =>
  nameReadings(tool).some(
    (words) =>
      words.some((word) => ASK.has(word)) &&
      (words.some((word) => PERSON.has(word)) ||
        (words.includes('ask') && words.some((word) => QUESTION.has(word)))),
  ),
);
