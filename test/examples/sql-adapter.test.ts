import { describe, expect, it } from 'vitest';
import { createSqlAdapter } from '../../examples/adapters/sql-adapter.js';
import type { Outcome } from '../../src/core/types.js';

const adapter = createSqlAdapter();

function call(sql: string) {
  return adapter.describeCall({ tool: 'query', args: { sql } });
}

function failure(sql: string, error: string, errorCode?: string) {
  const outcome: Outcome = { proposal: { tool: 'query', args: { sql } }, success: false, error, errorCode };
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

describe('the SQL example adapter', () => {
  it('reads a select as a query of its tables', () => {
    expect(call('SELECT u.id FROM Users u JOIN "Orders" o ON o.user_id = u.id')).toEqual({
      kind: 'read',
      actionClass: 'query',
      targets: ['users', 'Orders'],
    });
  });

  it('reads row writes as mutations of an existing table', () => {
    expect(call("INSERT INTO public.users (name) VALUES ('a')")).toMatchObject({
      kind: 'mutate',
      targets: ['public.users'],
    });
    expect(call('delete from users where id = 1').kind).toBe('mutate');
  });

  it('reads DDL as creation, change and removal of tables', () => {
    expect(call('CREATE TABLE IF NOT EXISTS audit (id int)')).toMatchObject({
      kind: 'create',
      targets: ['audit'],
    });
    expect(call('ALTER TABLE audit ADD COLUMN at timestamptz').kind).toBe('mutate');
    expect(call('DROP TABLE audit').kind).toBe('delete');
  });

  it('reads a missing table as target-missing for a query', () => {
    expect(failure('select * from userz', 'relation "userz" does not exist', '42P01')).toEqual({
      signature: 'undefined_table',
      blame: 'agent_failure',
      deterministic: true,
      meaning: 'target-missing',
    });
  });

  it('reads an existing table as target-exists for a create', () => {
    expect(failure('create table audit (id int)', 'relation "audit" already exists', '42P07')?.meaning).toBe(
      'target-exists',
    );
  });

  it('keeps a missing table to the call when the statement names several tables', () => {
    const sql = 'select * from users join userz on true';
    expect(failure(sql, 'relation "userz" does not exist', '42P01')?.meaning).toBe('call');
  });

  it('falls back to the message when there is no SQLSTATE', () => {
    expect(failure('selec 1', 'syntax error at or near "selec"')?.signature).toBe('syntax_error');
  });

  it('never narrows the agent for the server state', () => {
    expect(failure('select 1', 'canceling statement due to statement timeout', '57014')?.blame).toBe(
      'harness_fault',
    );
    expect(failure('select 1', 'connect ECONNREFUSED 127.0.0.1:5432')?.blame).toBe('harness_fault');
    expect(failure('select 1', 'terminating connection', '08006')?.signature).toBe('connection_failure');
  });

  it('blames nobody for an error it does not know', () => {
    expect(failure('select 1', 'something new')).toMatchObject({ signature: 'sql_error', blame: 'unknown' });
  });

  it('reports nothing for a success', () => {
    const outcome: Outcome = {
      proposal: { tool: 'query', args: { sql: 'select 1' } },
      success: true,
      content: '1',
    };
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))).toBeUndefined();
  });

  it('lists every signature and class it can produce', () => {
    expect(adapter.signatures).toContain('sql_error');
    expect(adapter.actionClasses).toEqual([
      'query',
      'write_rows',
      'create_table',
      'alter_table',
      'drop_table',
      'other',
    ]);
  });
});
