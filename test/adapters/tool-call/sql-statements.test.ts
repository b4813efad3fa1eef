/**
 * A database's statements sent through a tool that runs them (`execute_sql {query}`): a query that
 * only reads changes nothing another call can see, so a success of it relieves no ban, while a
 * statement that may write (an insert, a new table) is a change whose effects stay unknown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { sqlStatementOf, sqlTextOf } from '../../../src/adapters/tool-call/sql-statements.js';
import { NarrowingLoop } from '../../../src/index.js';

const READING = [
  'SELECT name, email FROM customers WHERE age > 30 ORDER BY name',
  'select count(*) from orders',
  '-- how many?\nSELECT COUNT(*) FROM orders',
  '/* schema */ SHOW TABLES',
  'SHOW COLUMNS FROM orders',
  'DESCRIBE orders',
  'DESC orders',
  'EXPLAIN SELECT * FROM orders WHERE id = 7',
  'WITH recent AS (SELECT * FROM orders WHERE placed_at > now() - interval 1 day) SELECT COUNT(*) FROM recent',
  'PRAGMA table_info(orders)',
  'PRAGMA foreign_key_list(orders)',
  "SELECT REPLACE(name, 'a', 'b'), TRUNCATE(price, 2) FROM items",
  "SELECT * FROM notes WHERE body = 'please update; then drop the table'",
  'SHOW TABLES; SELECT COUNT(*) FROM orders;',
  'SELECT id, done FROM tasks WHERE done = false',
];

const CHANGING = [
  "INSERT INTO customers (name) VALUES ('Ann')",
  "UPDATE customers SET name = 'Ann' WHERE id = 3",
  'DELETE FROM customers WHERE id = 3',
  'CREATE TABLE customers (id int, name text)',
  'DROP TABLE customers',
  'ALTER TABLE customers ADD COLUMN email text',
  'TRUNCATE TABLE customers',
  'SELECT * INTO customers_backup FROM customers',
  'EXPLAIN ANALYZE UPDATE customers SET name = name',
  'PRAGMA foreign_keys = ON',
  'PRAGMA cache_size(1000)',
  'WITH gone AS (DELETE FROM customers RETURNING *) SELECT COUNT(*) FROM gone',
  'SELECT 1; DROP TABLE customers',
  "SELECT nextval('order_ids')",
];

const NOT_SQL = ['ls -la', 'git status', 'select f in *.txt; do echo "$f"; done', 'npm test', ''];

describe('sqlStatementOf', () => {
  it.each(READING)('reads %j as a query that only reads', (text) => {
    expect(sqlStatementOf(text)).toEqual({ readsOnly: true });
  });

  it.each(CHANGING)('reads %j as a statement that may change the database', (text) => {
    expect(sqlStatementOf(text)).toEqual({ readsOnly: false });
  });

  it.each(NOT_SQL)('leaves %j alone: it is no SQL statement', (text) => {
    expect(sqlStatementOf(text)).toBeUndefined();
  });

  it('finds the statement under the names tools give it', () => {
    expect(sqlTextOf({ query: 'SELECT 1' })).toBe('SELECT 1');
    expect(sqlTextOf({ sql: 'SELECT 2', database: 'shop' })).toBe('SELECT 2');
    expect(sqlTextOf({ statement: 'SELECT 3' })).toBe('SELECT 3');
    expect(sqlTextOf({ table: 'orders' })).toBe('');
  });

  it('reads any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const read = sqlStatementOf(text);
        expect(read === undefined || typeof read.readsOnly === 'boolean').toBe(true);
      }),
    );
  });

  it('takes a write after a query and any text that opens no comment or quote as changing something', () => {
    const opensNothing = fc.string({ maxLength: 400 }).filter((text) => !/--|\/\*|['"`]/.test(text));
    fc.assert(
      fc.property(opensNothing, (text) => {
        expect(sqlStatementOf(`SELECT 1; ${text}; DELETE FROM customers`)?.readsOnly).toBe(false);
      }),
    );
  });

  it('reads a write that a line comment holds as no statement', () => {
    expect(sqlStatementOf('SELECT 1; -- DELETE FROM customers')).toEqual({ readsOnly: true });
    expect(sqlStatementOf('SELECT 1; --\nDELETE FROM customers')).toEqual({ readsOnly: false });
  });

  it('leaves a text longer than it reads alone, and reads an unclosed comment to the end', () => {
    expect(sqlStatementOf(`SELECT ${'1, '.repeat(10_000)}1`)).toBeUndefined();
    expect(sqlStatementOf(`SELECT 1 /*${' /*'.repeat(4_000)}`)).toEqual({ readsOnly: true });
  });
});

describe('a tool that runs SQL', () => {
  const adapter = createToolCallAdapter();
  const facts = (query: string) => adapter.describeCall(toolCallToProposal('execute_sql', { query }));

  it('takes a query that only reads for one that changes nothing, and a write for a change', () => {
    expect(facts('SELECT * FROM orders').computesOnly).toBe(true);
    expect(facts('SHOW TABLES').computesOnly).toBe(true);
    expect(facts('INSERT INTO orders (id) VALUES (7)').computesOnly).toBeUndefined();
  });

  const INSERT = "INSERT INTO customers (name) VALUES ('Ann')";
  const MISSING = "Error executing query: Table 'shop.customers' doesn't exist";

  /** The verdicts of `execute_sql` on each statement, run as the README's loop runs calls. */
  function verdicts(steps: readonly [string, string, boolean][]): string[] {
    const loop = new NarrowingLoop();
    return steps.map(([query, answer, failed]) => {
      const check = loop.checkProposal(toolCallToProposal('execute_sql', { query }));
      if (check.allowed) {
        const result = { content: [{ type: 'text', text: answer }], isError: failed };
        loop.recordOutcome(toolCallToOutcome('execute_sql', { query }, result));
      }
      return check.verdict;
    });
  }

  it('blocks a failing insert sent again after a query that only read another table', () => {
    const seen = verdicts([
      [INSERT, MISSING, true],
      ['SELECT COUNT(*) FROM orders', '[(12,)]', false],
      [INSERT, MISSING, true],
    ]);
    expect(seen).toEqual(['allow', 'allow', 'block']);
  });

  it('lets the insert run again once the table was created', () => {
    const seen = verdicts([
      [INSERT, MISSING, true],
      [INSERT, MISSING, true],
      ['CREATE TABLE customers (id int, name text)', '', false],
      [INSERT, '1 row affected', false],
    ]);
    expect(seen).toEqual(['allow', 'block', 'allow', 'allow']);
  });
});
