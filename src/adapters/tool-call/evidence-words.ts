/**
 * Blame for a failure the catalogue has no rule for, read from the kinds of words at its head and at
 * its end, where an error says what went wrong. The catalogue recognises wordings; a tool, a language
 * or a service it has never seen words its errors otherwise, but with the same kinds of words: a
 * value or a name the call gave that is invalid, unknown, malformed, missing or of the wrong type
 * (the call's fault), or a connection, a timeout, a quota, a credential, a lock, a sandbox or a crash
 * (the environment's). A text with words of one kind and none of the other is read as that kind; a
 * text with both, or with neither, stays nobody's.
 *
 * The adapter takes the call's own input out of the text first (`withoutEchoes`), so that a value
 * the agent sent (`rate_limit.py`, `--timeout`) is not read as evidence. What the words blame on the
 * call proves no more than a failure nobody can blame (`blameFromWords` in `FailureFacts`).
 */
import type { Blame } from '../../core/types.js';
import { endsOf } from './text-ends.js';

/** Characters read at each end of a long text: its first lines and its last, where errors are. */
const END_CHARS = 400;

/**
 * A word that names a field rather than says what happened (`Connection=close` among a response's
 * headers, `timeout=30` in a configuration, `"lock": false` in a body) is no evidence: a match
 * followed, past the rest of its word, by `=` or by a JSON key's closing quote and colon is passed over.
 */
const NOT_A_FIELD = String.raw`(?![\w-]*(?:\s*=|"\s*:))`;

/**
 * A word that is part of a path or a file's name (`lib/net/connection.ex`, `auth/login.ts`,
 * `https://host/v1/timeout`) names what the call gave, not what happened: a match right after a
 * slash, or followed, past the rest of its word, by a slash or by a file's extension, is passed over.
 */
const NOT_IN_A_PATH_BEFORE = String.raw`(?<![/\\])`;
const NOT_IN_A_PATH_AFTER = String.raw`(?![\w-]*(?:[/\\]|\.[a-z][a-z0-9]{0,5}\b))`;

/**
 * Joins a family's alternatives into one case-insensitive expression whose matches are not field
 * names, nor words of a path.
 */
function words(alternatives: readonly string[]): RegExp {
  return new RegExp(
    `${NOT_IN_A_PATH_BEFORE}(?:${alternatives.join('|')})${NOT_IN_A_PATH_AFTER}${NOT_A_FIELD}`,
    'i',
  );
}

/** Words of an environment failing, whatever the call asked for. */
const ENVIRONMENT_WORDS = words([
  // Time and transport.
  String.raw`\btim(?:ed|ing)? ?out\b|\btimeout\b|\bdeadline\b`,
  String.raw`\bconnect(?:ion|ing)?\b|\bnetwork|\bunreachable\b|\bsocket\b|\bdns\b|resolve host`,
  String.raw`\bfetch failed\b|\bfailed to fetch\b|\bproxy (?:error|authenticat|connect|refused|failed)|\bcertificate\b|\bssl\b|\btls\b|\bhandshake\b`,
  String.raw`\bdisconnect|\bunresponsive\b|\bwedged\b|\bhung\b|\bdownload`,
  // Service health and limits.
  String.raw`\brate.?limit|\bquotas?\b|\bthrottl|too many requests|\bcapacity\b|\boverload`,
  String.raw`\bunavailable\b|\bmaintenance\b|\b(?:try again|retry) later\b|\btemporar|\bserver error|\bgateway\b`,
  String.raw`\bupstream (?:connect|request|server|service|error|timed|timeout|unavailable|returned|responded)`,
  String.raw`\bbilling\b|\bcredits?\b|\bsubscription\b`,
  // The session's identity.
  String.raw`\bauth(?:enticat|oriz|orisat)|\bunauthori[sz]ed\b|\bcredentials?\b|\blog ?in\b|\bsign ?in\b`,
  String.raw`\bforbidden\b|\bpermission|access (?:is )?denied|not permitted|\bapi[ _-]?key|\bexpired\b`,
  String.raw`\b(?:access|auth|bearer|api|refresh|session|oauth) token`,
  // The host and the programs it runs.
  String.raw`\bsandbox|\bcontainer\b|\bdaemon\b|\bkernel\b|\bcrash|\bsegmentation fault\b|core dumped`,
  String.raw`\bkilled\b|\bsig(?:kill|term|segv|abrt)\b|out of memory|\bno space\b|\bdisk\b`,
  String.raw`\block(?:ed|file|s)?\b|in progress|another process|\bbusy\b`,
  String.raw`not installed|\binstall(?:ation)? (?:failed|is broken)|\bspawn\b`,
]);

/** Words of the call's own input being wrong: what it named, gave or wrote. */
const CALL_WORDS = words([
  String.raw`\binvalid\b|\bnot (?:a )?valid\b|\bmalformed\b|\bmisspel|\bunrecogni[sz]ed\b|not recogni[sz]ed`,
  String.raw`\bunknown (?:column|field|option|argument|flag|command|subcommand|type|key|property|parameter|attribute|table|function|method|variable|identifier|tool|action|value|name)`,
  String.raw`\bundefined (?:function|variable|method|reference|index|symbol|name|property|constant)|is not defined\b|is undefined\b`,
  String.raw`\bunexpected (?:token|character|argument|keyword|end|identifier|indent|eof|symbol|input)`,
  String.raw`\bexpected\b.{0,80}\b(?:got|but|found|instead|received)\b`,
  String.raw`\bmust (?:be|not|have|contain|start|end|match)\b|\bcannot contain\b|\bcan only contain\b|\bshould (?:be|not)\b`,
  String.raw`\bis required\b|\bmissing required\b|\brequired (?:field|argument|parameter|property|option)`,
  String.raw`\b(?:does not|doesn't|did not|didn't) (?:exist|match)\b|\bno such\b|\bnot found\b`,
  String.raw`\b(?:could not|couldn't|cannot|can't|unable to) (?:find|resolve|locate|parse)\b`,
  String.raw`\bduplicate\b|\balready (?:exists|defined|declared|registered)\b`,
  String.raw`\b(?:not|un)supported\b|\bis not an? (?:function|directory|file|object|number|string|iterable|constructor|member)\b`,
  String.raw`\bsyntax\b|\bparse error\b|\bparsing failed\b|\bfailed to parse\b`,
  String.raw`\b(?:type|value|key|attribute|name|index|reference|range|argument|assertion|zerodivision|lookup)error\b`,
  String.raw`\b(?:illegal|incompatible|mismatch(?:ed)?|conflicting)\b|\bout of (?:range|bounds)\b|\bbeyond (?:the )?end\b`,
  String.raw`\bwrong (?:type|kind|number|value|format)\b|\bno (?:matching|rows?)\b|\b0 rows\b`,
  String.raw`\bless than the minimum\b|\bgreater than the maximum\b|\bexceeds? the maximum\b|\btoo (?:long|short|large|many arguments)\b`,
]);

/** Lines of a command's output that can still be one message rather than a log. */
const MESSAGE_LINES = 3;
const MESSAGE_CHARS = 1_000;

/** Whether a text is a message of a few lines, not a program's log. */
function isMessage(text: string): boolean {
  if (text.length > MESSAGE_CHARS) return false;
  let lines = 0;
  for (const line of text.split('\n')) if (line.trim() !== '' && ++lines > MESSAGE_LINES) return false;
  return true;
}

/**
 * Whose fault a failure no rule recognised is, by the kinds of words at its ends: undefined when
 * they are of both kinds or of neither. A command's output is a program's log as much as its error,
 * and words of connections, downloads or locks in a log are as often progress as failure
 * (`[+] Opening connection to host: Done`): from a command, only a message of a few lines blames the
 * environment.
 */
export function blameByWords(text: string, fromCommand: boolean): Exclude<Blame, 'unknown'> | undefined {
  const read = endsOf(text, END_CHARS);
  const environment = ENVIRONMENT_WORDS.test(read);
  const call = CALL_WORDS.test(read);
  if (call === environment) return undefined;
  if (call) return 'agent_failure';
  return fromCommand && !isMessage(text) ? undefined : 'harness_fault';
}
