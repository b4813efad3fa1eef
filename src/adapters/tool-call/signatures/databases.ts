/**
 * Databases: SQL errors, connections to database servers, database locks.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const DATABASES: FamilyTable = {
  malformedHost: {
    patterns: ['\\bcould not translate host name "(?:(?=[^"\\n]*[=\'\\s/])[^"\\n]*|[^"\\n]*\\n[^"\\n]*)"'],
    hints: ['host', 'translate host name'],
  },
  permission: {
    patterns: [
      '\\bread-only (?:file ?system|database)\\b',
      '\\breadonly database\\b',
      '\\bpassword authentication failed\\b',
      '\\bno password supplied\\b',
      // redis error replies whose class is the session’s credentials
      '^(?:\\(error\\) )?(?:NOAUTH|WRONGPASS|NOPERM)\\b',
    ],
    hints: ['read-only', 'readonly', 'authenticat', 'password', 'noauth', 'wrongpass', 'noperm'],
  },
  unavailable: {
    patterns: [
      '\\b(?:daemon|server|service|database|db|postgres|mysql|redis|browser) (?:is )?(?:not running|not started|not reachable|not available|not responding)\\b',
      '\\bis the server running\\b',
      '\\bcould not connect to (?:the )?(?:server|database|daemon|docker)\\b',
      "\\bcan't connect to (?:local |the |remote )?(?:mysql )?server\\b",
      // a server still starting or stopping (PostgreSQL), or out of reach of an ORM (Prisma's P1001)
      '\\bthe database system is (?:starting up|shutting down|in recovery mode|not yet accepting connections)\\b',
      "\\bcan(?:no|')t reach database server\\b",
      '\\b(?:unable|failed) to connect to (?:the )?(?:server|daemon|docker|database|bus|endpoint|mcp server)\\b',
      // redis error replies whose class is the server’s state; the classes that are also words a
      // program's log starts a line with (`Loading composer repositories…`, `Readonly mode`) only
      // as redis-cli shows a reply, or with the words redis writes after them
      '^(?:\\(error\\) )?(?:MASTERDOWN|CLUSTERDOWN|TRYAGAIN|MISCONF|NOREPLICAS)\\b',
      '^\\(error\\) (?:LOADING|READONLY)\\b',
      "^READONLY You can't write against a read only replica\\b",
      // the same state in a client's words (redis-py's `BusyLoadingError: Redis is loading the dataset in memory`)
      '\\bis loading the dataset in memory\\b',
    ],
    hints: [
      'not running',
      'not started',
      'not reachable',
      'not available',
      'not responding',
      'server running',
      'server',
      'connect to',
      'bus',
      'mcp server',
      'database system',
      'reach database',
      'loading',
      'masterdown',
      'clusterdown',
      'tryagain',
      'misconf',
      'noreplicas',
      'readonly',
    ],
  },
  locked: {
    patterns: [
      '\\bdatabase (?:table )?is locked\\b',
      '\\bSQLITE_BUSY\\b',
      '\\blocked by another (?:process|user|session|transaction|operation|instance|client)\\b',
      '\\banother (?:api )?(?:request|process|operation|transaction|instance)\\b[^\\n]{0,80}\\b(?:currently|in progress|already running|holding)\\b',
      '\\bdeadlock (?:detected|found)\\b',
      '\\bcould not obtain lock\\b',
    ],
    hints: ['locked', 'sqlite_busy', 'another', 'lock', 'busy', 'deadlock', 'in progress'],
  },
  sql: {
    patterns: [
      '\\bno such (?:table|column|function|index|view|savepoint)\\b',
      '\\b(?:column|relation|table|function|schema|database|type|index|view|constraint|sequence|operator)\\b[^\\n]{0,120}\\b(?:does not exist|already exists)\\b',
      '\\bunknown column\\b',
      // ClickHouse's `Missing columns: 'name' 'dur' while processing query` (`UNKNOWN_IDENTIFIER`)
      '\\bmissing columns?: ',
      '\\bunknown_identifier\\b',
      '\\bsqlstate\\W{0,3}(?:42|23|22|21|2f|3d|3f|0a|44|2b)[0-9a-z]{3}\\b',
      '^(?:error:|fatal:)\\s+(?:42|23|22|21|2f|3d|3f|0a|44|2b)[0-9a-z]{3}:',
      '(?:\\(42|\\(23|\\(22|\\(21)[0-9a-z]{3}\\)',
      '\\bduplicate key value\\b',
      '\\bviolates (?:not-null|foreign key|check|unique|exclusion) constraint\\b',
      '\\b(?:unique|not null|foreign key|check|primary key) constraint failed\\b',
      '\\bduplicate entry\\b',
      '\\binvalid input (?:syntax|value) for\\b',
      '\\bmust appear in the group by clause\\b',
      '\\b(?:column|table) reference [^\\n]{1,80} is ambiguous\\b',
      '\\b(?:table|relation) [^\\n]{1,80} has no column named\\b',
      '\\bhas \\d+ columns but \\d+ values were supplied\\b',
      '\\b(?:programmingerror|integrityerror|dataerror)\\b',
      '\\bundefined(?:column|table|function)\\b',
      '\\bnumeric value out of range\\b',
      '\\bvalue too long for type\\b',
      // MySQL's and MariaDB's wordings of a statement that names or groups what it cannot
      "\\bcolumn '[^'\\n]{1,120}' in [a-z ]{1,40} is ambiguous\\b",
      '\\bnot unique table/alias\\b',
      "\\bunknown table '[^'\\n]{1,120}'",
      '\\bevery derived table must have its own alias\\b',
      '\\binvalid use of group function\\b',
      '\\bis not in group by clause\\b',
      '\\bsubquery returns more than \\d+ row',
      '\\boperand should contain \\d+ column',
      '\\bthe used select statements have a different number of columns\\b',
    ],
    hints: [
      'missing column',
      'unknown_identifier',
      'no such',
      'exist',
      'unknown column',
      'sqlstate',
      'error:',
      'fatal:',
      '(42',
      '(23',
      '(22',
      '(21',
      'duplicate',
      'violates',
      'constraint failed',
      'invalid input',
      'group by',
      'is ambiguous',
      'no column named',
      'values were supplied',
      'programmingerror',
      'integrityerror',
      'dataerror',
      'undefined',
      'out of range',
      'too long for type',
      'not unique',
      'unknown table',
      'derived table',
      'group function',
      'subquery returns',
      'operand should contain',
      'different number of columns',
    ],
  },
  /**
   * redis error replies whose class is the command’s (unknown command, wrong type, bad argument): the
   * class, one space, the message; not a log line whose level is padded (`ERR  bridge start() …`)
   */
  usage: {
    patterns: [
      '^(?:\\(error\\) )?(?:OK )?(?:ERR|WRONGTYPE|BUSYKEY|NOSCRIPT|EXECABORT|CROSSSLOT|UNKILLABLE|NOTBUSY) (?=\\S)',
      // the same replies quoted by a client (`Redis error: WRONGTYPE Operation against a key …`)
      '\\bWRONGTYPE\\b',
      '\\bwrong kind of value\\b',
    ],
    hints: [
      'err ',
      'wrong kind of value',
      'wrongtype',
      'busykey',
      'noscript',
      'execabort',
      'crossslot',
      'unkillable',
      'notbusy',
    ],
  },
};
