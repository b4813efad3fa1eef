/**
 * A `description` beside a call's other arguments may be its data (a ticket's body, a task's text),
 * so it stays in the call's identity; but an agent rewrites it on every retry when it is only words
 * about the call. What the call answers settles which: two calls that differ only in a prose
 * description and get the same answer (the same failure, the same result) are the same attempt.
 * The key here leaves the description out; the engine counts answers under it only while they match.
 */
import { canonicalJson, hashMaskedArgument } from '../../core/identity/index.js';
import { schemaTakes, wordsAboutTheCall } from './normal-form.js';
import { isInstruction } from './page-failure.js';

const DESCRIPTION = 'description';
/**
 * A description that is words about the call is a sentence, short or not (`Verify the result`, `Look
 * it up`): three plain words or more. A value is not (`v2`, `red shoes`, an id, a path).
 */
const MIN_WORDS = 3;
/** A call with more arguments than this is not keyed without its description: its key would be partial. */
const MAX_ARGUMENTS = 64;

/**
 * The key of a call without its prose `description`: undefined when it has none, when the tool's
 * schema lists it (an argument the tool takes), when the description is already left out of its
 * identity (words about a command or a file), or when nothing else is left to name the call.
 */
export function keyWithoutDescription(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  inputSchema: unknown,
): string | undefined {
  const description = args[DESCRIPTION];
  if (typeof description !== 'string' || !isInstruction(description, MIN_WORDS)) return undefined;
  // A description the tool's own schema lists is an argument it takes: its data, whatever it answers.
  if (schemaTakes(inputSchema, DESCRIPTION)) return undefined;
  if (wordsAboutTheCall(args, inputSchema).includes(DESCRIPTION)) return undefined;
  const keys = Object.keys(args);
  if (keys.length > MAX_ARGUMENTS) return undefined;
  const others: Record<string, unknown> = {};
  let named = false;
  for (const key of keys) {
    if (key === DESCRIPTION || args[key] === undefined) continue;
    others[key] = args[key];
    named = true;
  }
  if (!named) return undefined;
  return `${tool}\u0000described\u0000#${hashMaskedArgument(canonicalJson(others))}`;
}
