/**
 * SQL sent through a tool that runs it (`execute_sql {query}`, `run_sql {sql}`): what a database's
 * statement does to the world is read from its keywords, outside quotes and comments. A statement
 * that only reads (`SELECT`, `SHOW TABLES`, `DESCRIBE t`, `EXPLAIN SELECT …`, a `WITH` query, a
 * `PRAGMA` that sets nothing) changes nothing another call can see; any other statement (`INSERT`,
 * `UPDATE`, `CREATE TABLE`, `SELECT … INTO`, `EXPLAIN ANALYZE`, which runs what it explains) may
 * change the database, and its effects stay unknown. A text is read only as far as it is sure:
 * one statement it cannot place makes the whole text one that may change something.
 *
 *     sqlStatementOf('SELECT name FROM users WHERE age > 30')   // { readsOnly: true }
 *     sqlStatementOf("UPDATE users SET name = 'ann'")          // { readsOnly: false }
 *     sqlStatementOf('ls -la')                                  // undefined: not SQL
 */

import { firstString } from './call-arguments.js';

export interface SqlStatement {
  /** Every statement of the text only reads: the text changes nothing in the database. */
  readonly readsOnly: boolean;
}

/** The argument names a tool gives the statement it runs. */
const SQL_KEYS = ['query', 'sql', 'statement', 'sql_query', 'sqlQuery'] as const;

/** The statement a call's arguments hold under a name tools give it, or '' when none does. */
export function sqlTextOf(args: Readonly<Record<string, unknown>>): string {
  return firstString(args, SQL_KEYS) ?? '';
}

/** Longer texts are not read: their effects stay unknown, as a long shell line's do. */
const MAX_SQL_CHARS = 16_384;
/** How a statement opens, past white space and comments. */
const OPENING =
  /^(?:select|with|show|describe|desc|explain|pragma|values|insert|update|delete|merge|upsert|replace|create|drop|alter|truncate|grant|revoke)\b/i;
/** How a statement that only reads opens. */
const READING_OPENING = /^(?:select|with|show|describe|desc|explain|pragma|values)\b/i;
/**
 * Words that make a statement change something wherever they stand: a write, a definition, a
 * grant, `SELECT … INTO` (a new table, or a file), `EXPLAIN ANALYZE` (which runs the statement), a
 * sequence advanced, a procedure called. `INSERT`, `REPLACE` and `TRUNCATE` before `(` are string
 * and number functions (`SELECT REPLACE(name, 'a', 'b')`), which change nothing.
 */
const CHANGING_WORD =
  /\b(?:(?:insert|replace|truncate)\b(?!\s*\()|(?:update|delete|merge|upsert|create|drop|alter|grant|revoke|into|analyze|analyse|copy|call|exec|execute|lock|vacuum|refresh|reindex|cluster|attach|detach|nextval|setval|load)\b)/i;
/** A pragma that reads a table's or an index's description (`PRAGMA table_info(users)`). */
const DESCRIBING_PRAGMA = /^pragma\s+(?:\w+\.)?\w+_(?:x?info|list)\s*\(/i;
/** A shell's `select` loop (`select f in *.txt; do …; done`), not a query. */
const SHELL_SELECT = /^select\s+\w+\s+in\b[^;]*;\s*do\b/i;
/** Quoted text (a value, a name), whose words say nothing about what the statement does. */
const QUOTED = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g;
/** A comment from `--` to the end of its line. */
const LINE_COMMENT = /--[^\n]*/g;

/** What a text read as SQL does, or undefined when it does not open as a SQL statement. */
export function sqlStatementOf(text: string): SqlStatement | undefined {
  if (typeof text !== 'string' || text.length > MAX_SQL_CHARS) return undefined;
  // Most texts a command tool runs are shell lines: told apart by how they open, before any work.
  const head = text.trimStart();
  if (!OPENING.test(head) && !head.startsWith('--') && !head.startsWith('/*')) return undefined;
  const bare = withoutBlockComments(text.replace(QUOTED, "''").replace(LINE_COMMENT, ' ')).trim();
  if (!OPENING.test(bare) || SHELL_SELECT.test(bare)) return undefined;
  const statements = bare
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
  const readsOnly = statements.every(
    (statement) =>
      READING_OPENING.test(statement) &&
      !CHANGING_WORD.test(statement) &&
      // A pragma given a value sets it (`PRAGMA foreign_keys = ON`, `PRAGMA cache_size(1000)`).
      !(
        /^pragma\b/i.test(statement) &&
        (statement.includes('=') || (statement.includes('(') && !DESCRIBING_PRAGMA.test(statement)))
      ),
  );
  return { readsOnly };
}

/** The text without its `/* … *\/` comments (an unclosed one runs to the end), in one pass. */
function withoutBlockComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('/*'); open >= 0; open = text.indexOf('/*', from)) {
    out += `${text.slice(from, open)} `;
    const close = text.indexOf('*/', open + 2);
    if (close < 0) return out;
    from = close + 2;
  }
  return out + text.slice(from);
}
