/**
 * Errors that refuse a call because another must run before it: "X only follows Y", "call Y first",
 * "use the Y tool first", "must Y before X", "not allowed before Y", "requires Y to be run first",
 * "no session: start one first". Such a refusal is about the order of the calls, not about the call
 * itself: once another call has run since, the same call may succeed.
 */

/** Where an error says so, if it does: its first characters. */
const HEAD_CHARS = 600;

const ORDERING = new RegExp(
  [
    // "X only follows Y", "X may only come after Y"
    String.raw`\bonly (?:follows?|comes? after|be (?:called|run|used) after)\b`,
    // "call Y first", "run `make configure` first", "start one first", "use the open_page tool to
    // load one first"
    String.raw`\b(?:call|run|use|invoke|execute|start|open|create|initiali[sz]e|connect|log ?in|authenticate|select|take)\b[^\n.]{1,60}?\bfirst\b(?!\s+(?:\w|'))`,
    // "you must take a snapshot before clicking", "must be called after login"
    String.raw`\b(?:must|needs? to|has to|have to|should)\b[^\n.]{1,60}?\bbefore (?:calling|running|using|invoking|clicking|this|it)\b`,
    String.raw`\b(?:must|needs? to|has to) be (?:called|run|used|invoked|executed) after\b`,
    // "not allowed before Y", "not available until Y"
    String.raw`\bnot (?:allowed|permitted|possible|available|valid) (?:before|until)\b`,
    // "requires Y to be run first"
    String.raw`\brequires?\b[^\n.]{1,60}?\bto (?:be )?(?:run|called|executed|invoked|started|completed|done)\b[^\n.]{0,20}?\bfirst\b`,
    String.raw`\bout of order\b`,
  ].join('|'),
  'i',
);

/**
 * Words of which every match of `ORDERING` holds one (each alternative holds one of them). Most
 * errors hold none, and are then told apart without running the expression: a fresh process's
 * first run of it compiles it, and its second compiles it again to machine code, a few milliseconds
 * of the first failures a process reads. `out of order` is looked for whole: `order` alone is in
 * paths (`src/orders/`). Matching ignores case only among ASCII letters (no `u` flag), which
 * `toLowerCase` folds alike.
 */
const ORDERING_WORDS = ['only', 'first', 'before', 'after', 'until', 'out of order'];

/** An error that says another call must come first. */
export function refusesOrder(text: string): boolean {
  const head = text.length > HEAD_CHARS ? text.slice(0, HEAD_CHARS) : text;
  const lower = head.toLowerCase();
  return ORDERING_WORDS.some((word) => lower.includes(word)) && ORDERING.test(head);
}
