/**
 * A file tool's refusal given back as its answer with nothing flagged: a framework tool that returns
 * its error message as its output, a trajectory whose observations carry no status, a host that
 * marks nothing (`No replacement was performed, old_str … did not appear verbatim in …`,
 * `<tool_use_error>File does not exist.</tool_use_error>`, `ERROR:\nInvalid \`path\` parameter: …`).
 * An editor's or a writer's success says so in a line of its own (`The file … has been updated
 * successfully.`), so an answer whose first line the blame catalogue reads as the agent's failure is
 * one; an environment's failure left unflagged stays a success, as nothing can be learned from it. A
 * read answers with what the file holds, which may be any text: only a short answer, a sentence or
 * two, is read so, as no file is likely to hold just the words of a refusal.
 */
import type { CallFacts, Outcome } from '../../core/types.js';
import { isRecord } from './action-classes.js';
import { withoutEchoes } from './echoes.js';
import type { SignatureMatcher } from './matcher.js';
import type { SignatureRule } from './signatures.js';

/** The kinds of call that act on the files they name. */
const FILE_KINDS: ReadonlySet<string> = new Set(['read', 'mutate', 'create', 'delete']);
/** A refusal's first line is a sentence or two; a longer one is a file's. */
const MAX_FIRST_LINE = 300;
/** How much of an answer its first line is looked for in, once what quotes the call is out. */
const MAX_HEAD = 4_000;
/** A read's whole answer, when it is a refusal. */
const MAX_READ_REFUSAL = 400;
const MAX_READ_REFUSAL_LINES = 3;

/**
 * Whether a result that says nothing of how the call went is a file tool's refusal. What quotes the
 * call's own arguments is taken out of it first, as it is out of a failure's text.
 */
export function isUnflaggedRefusal(outcome: Outcome, call: CallFacts, matcher: SignatureMatcher): boolean {
  if (!outcome.success || outcome.exitCode !== undefined || outcome.error !== undefined) return false;
  if (!FILE_KINDS.has(call.kind) || call.targets.length === 0) return false;
  const content = typeof outcome.content === 'string' ? outcome.content.trim() : '';
  if (content === '') return false;
  if (call.kind === 'read' && !isShort(content)) return false;
  const raw = firstLine(content);
  // A line that quotes nothing is read as it is: the call's own text (a long search text is costly
  // to look for) is taken out only where it may be, in a line that quotes something (a search text,
  // maybe of several lines) or that the catalogue reads as the agent's failure (whose words may be
  // the call's).
  if (!hasQuote(raw) && (raw.length > MAX_FIRST_LINE || !isAgentFailure(matcher.matchOnce(raw))))
    return false;
  const args = isRecord(outcome.proposal?.args) ? outcome.proposal.args : {};
  const first = firstLine(withoutEchoes(content.slice(0, MAX_HEAD), args));
  if (first.length > MAX_FIRST_LINE) return false;
  const rule = matcher.matchOnce(first);
  if (!isAgentFailure(rule)) return false;
  // A read changes nothing, so nothing it names can be in its way: "the file exists but is shorter
  // than the offset" is a read past the end, answered with nothing.
  return call.kind !== 'read' || rule.signature !== 'conflict';
}

function isAgentFailure(rule: SignatureRule | undefined): rule is SignatureRule {
  return rule?.blame === 'agent_failure';
}

/** Whether the line quotes anything (a backtick, a double quote): the call's own text, maybe. */
function hasQuote(line: string): boolean {
  return line.includes('`') || line.includes('"');
}

/** A line that is only a label (`ERROR:`, OpenHands' above its editor's refusals) heads the next one. */
const LABEL_ONLY = /^\W*\w+:$/;

/** The answer's first line, with the next one when the first is only a label. */
function firstLine(text: string): string {
  const end = text.indexOf('\n');
  if (end < 0) return text;
  const first = text.slice(0, end).trim();
  if (!LABEL_ONLY.test(first)) return first;
  const next = text.indexOf('\n', end + 1);
  return `${first} ${text.slice(end + 1, next < 0 ? text.length : next).trim()}`;
}

function isShort(text: string): boolean {
  if (text.length > MAX_READ_REFUSAL) return false;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (++lines > MAX_READ_REFUSAL_LINES) return false;
  }
  return true;
}
