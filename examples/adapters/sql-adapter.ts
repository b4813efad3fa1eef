/**
 * A domain adapter for an agent that queries PostgreSQL through one tool taking `{ sql }`. It shows the
 * whole contract in one file: statements become kinds and table targets, SQLSTATE codes (node-postgres
 * puts them in `error.code`) and server messages become signatures with blame and meaning.
 */
import type {
  ActionKind,
  Blame,
  CallFacts,
  DomainAdapter,
  FailureFacts,
  FailureMeaning,
  Outcome,
  Proposal,
} from '../../src/core/types.js';

interface Statement {
  readonly pattern: RegExp;
  readonly kind: ActionKind;
  readonly actionClass: string;
}

/** First keyword decides. Rows written into an existing table change it; only DDL creates or drops tables. */
const STATEMENTS: readonly Statement[] = [
  { pattern: /^(?:select|with|explain|show|table)\b/i, kind: 'read', actionClass: 'query' },
  { pattern: /^(?:insert|update|delete|merge|copy|truncate)\b/i, kind: 'mutate', actionClass: 'write_rows' },
  { pattern: /^create\b/i, kind: 'create', actionClass: 'create_table' },
  { pattern: /^alter\b/i, kind: 'mutate', actionClass: 'alter_table' },
  { pattern: /^drop\b/i, kind: 'delete', actionClass: 'drop_table' },
];

const TABLE =
  /\b(?:from|join|into|update|table(?:\s+if(?:\s+not)?\s+exists)?)\s+((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)/gi;

interface SqlSignature {
  readonly signature: string;
  readonly blame: Blame;
  readonly deterministic: boolean;
  /** SQLSTATE codes, or class prefixes such as `08`. */
  readonly codes: readonly string[];
  readonly message: RegExp;
  readonly meaning?: (kind: ActionKind) => FailureMeaning;
}

function sig(
  signature: string,
  blame: Blame,
  deterministic: boolean,
  codes: string,
  message: RegExp,
  meaning?: (kind: ActionKind) => FailureMeaning,
): SqlSignature {
  return {
    signature,
    blame,
    deterministic,
    codes: codes.split(' '),
    message,
    ...(meaning ? { meaning } : {}),
  };
}

const MISSING = (kind: ActionKind): FailureMeaning => (kind === 'create' ? 'call' : 'target-missing');
const EXISTS = (kind: ActionKind): FailureMeaning => (kind === 'create' ? 'target-exists' : 'call');

/** In priority order. A query that can never succeed is the agent's; the server's state is the harness's. */
const SIGNATURES: readonly SqlSignature[] = [
  sig(
    'connection_failure',
    'harness_fault',
    false,
    '08 57P01',
    /\bECONNREFUSED\b|\bconnection (?:refused|terminated)\b/i,
  ),
  sig('query_timeout', 'harness_fault', false, '57014', /\bcanceling statement due to statement timeout\b/i),
  sig(
    'transient_conflict',
    'harness_fault',
    false,
    '40P01 40001',
    /\bdeadlock detected\b|\bcould not serialize\b/i,
  ),
  sig(
    'permission_denied',
    'harness_fault',
    true,
    '42501',
    /\bpermission denied for (?:table|relation|schema)\b/i,
  ),
  sig('syntax_error', 'agent_failure', true, '42601', /\bsyntax error at or near\b/i),
  sig('undefined_table', 'agent_failure', true, '42P01', /\brelation "[^"]+" does not exist\b/i, MISSING),
  sig('duplicate_table', 'agent_failure', true, '42P07', /\brelation "[^"]+" already exists\b/i, EXISTS),
  sig(
    'undefined_column',
    'agent_failure',
    true,
    '42703',
    /\bcolumn "[^"]+" (?:of relation "[^"]+" )?does not exist\b/i,
  ),
  sig(
    'unique_violation',
    'agent_failure',
    true,
    '23505',
    /\bduplicate key value violates unique constraint\b/i,
  ),
];

const UNKNOWN = { signature: 'sql_error', blame: 'unknown', deterministic: false } as const;

function tableName(raw: string): string {
  // Postgres folds unquoted names to lower case; quoted names keep theirs.
  return raw.replace(
    /"([^"]+)"|([^".]+)/g,
    (_, quoted: string, bare: string) => quoted ?? bare.toLowerCase(),
  );
}

export function createSqlAdapter(): DomainAdapter {
  return {
    name: 'sql',
    signatures: [...SIGNATURES.map((s) => s.signature), UNKNOWN.signature],
    actionClasses: [...STATEMENTS.map((s) => s.actionClass), 'other'],

    describeCall(proposal: Proposal): CallFacts {
      const sql = typeof proposal.args.sql === 'string' ? proposal.args.sql.trim() : '';
      const statement = STATEMENTS.find((s) => s.pattern.test(sql));
      const targets = new Set<string>();
      for (const match of sql.matchAll(TABLE))
        if (match[1] && targets.size < 16) targets.add(tableName(match[1]));
      return {
        kind: statement?.kind ?? 'other',
        actionClass: statement?.actionClass ?? 'other',
        targets: [...targets],
      };
    },

    describeFailure(outcome: Outcome, call: CallFacts): FailureFacts | undefined {
      if (outcome.success) return undefined;
      const code = outcome.errorCode ?? '';
      const text = `${outcome.error ?? ''}\n${outcome.content ?? ''}`;
      const found =
        SIGNATURES.find((s) => code !== '' && s.codes.some((c) => code.startsWith(c))) ??
        SIGNATURES.find((s) => s.message.test(text));
      if (!found) return { ...UNKNOWN, meaning: 'call' };
      // A table-wide meaning is only safe when the statement names exactly one table.
      const meaning = found.meaning && call.targets.length === 1 ? found.meaning(call.kind) : 'call';
      return { signature: found.signature, blame: found.blame, deterministic: found.deterministic, meaning };
    },
  };
}
