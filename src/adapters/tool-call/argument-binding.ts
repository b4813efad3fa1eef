/**
 * A tool written as a function refusing the arguments it was called with, in Python's words: the
 * function that is the tool (named as the tool, or a tool class's entry point) `got an unexpected
 * keyword argument`, is `missing 1 required positional argument`, `takes 0 positional arguments but 1
 * was given`, or `got multiple values for argument`. The call gave what the tool does not take: the
 * agent's to change, however the framework frames it (`Error executing tool 'x' …: TypeError: …`).
 * The same words about another function (a library's `__init__()` under the tool) are a broken
 * install or a bug of the tool's, and are left to the catalogue.
 */
import { endsOf } from './text-ends.js';

/** The methods through which a tool class receives the call's arguments (smolagents, LangChain). */
const ENTRY_POINTS = ['forward', '_run', '_arun'];

const REFUSAL =
  /(?:^|[\s.:'"`(])([A-Za-z_][\w]*)\(\) (?:got an unexpected keyword argument|missing \d+ required (?:positional|keyword-only) arguments?|takes \d+ positional arguments? but \d+ (?:was|were) given|got multiple values for (?:keyword )?argument)\b/g;

/** Characters of a failure read for a refusal: Python's message stands at its head or its end. */
const SCANNED_CHARS = 4_000;

/** The names the function that is `tool` may have: its own, its last part, and the entry points. */
function functionNames(tool: string): Set<string> {
  const names = new Set(ENTRY_POINTS);
  names.add(tool);
  const last = tool.split(/__|[.:/]/).pop();
  if (last !== undefined && last !== '') names.add(last);
  names.add(tool.replace(/-/g, '_'));
  return names;
}

/** Whether `text` says the function that is `tool` refused the arguments of the call. */
export function toolRefusedItsArguments(text: string, tool: string | undefined): boolean {
  if (tool === undefined || tool === '' || !text.includes('() ')) return false;
  const scanned = endsOf(text, SCANNED_CHARS);
  const names = functionNames(tool);
  REFUSAL.lastIndex = 0;
  for (let match = REFUSAL.exec(scanned); match !== null; match = REFUSAL.exec(scanned)) {
    if (names.has(match[1] as string)) return true;
  }
  return false;
}
