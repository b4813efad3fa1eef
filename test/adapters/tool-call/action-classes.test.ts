import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import type { ActionKind, ToolAnnotations } from '../../../src/core/types.js';
import { adapter } from './helpers.js';

function classify(tool: string, args: Record<string, unknown> = {}, annotations?: ToolAnnotations) {
  const facts = adapter.describeCall(toolCallToProposal(tool, args, annotations ? { annotations } : {}));
  return { kind: facts.kind, actionClass: facts.actionClass };
}

function expectKinds(table: readonly (readonly [string, ActionKind, string])[]): void {
  for (const [tool, kind, actionClass] of table) {
    expect({ tool, ...classify(tool) }).toEqual({ tool, kind, actionClass });
  }
}

describe('the action class list', () => {
  it('has the paper seven plus other', () => {
    expect(adapter.actionClasses).toEqual([
      'file_read',
      'file_edit',
      'file_create',
      'shell_exec',
      'search',
      'api_call',
      'delete',
      'other',
    ]);
  });
});

describe('built-in tools of coding agents', () => {
  it('classifies the Claude Code tools', () => {
    expectKinds([
      ['Read', 'read', 'file_read'],
      ['Edit', 'mutate', 'file_edit'],
      ['MultiEdit', 'mutate', 'file_edit'],
      ['Write', 'mutate', 'file_edit'],
      ['Bash', 'exec', 'shell_exec'],
      ['Grep', 'search', 'search'],
      ['Glob', 'search', 'search'],
      ['WebFetch', 'api', 'api_call'],
      ['WebSearch', 'search', 'search'],
      ['TodoWrite', 'other', 'other'],
      ['LS', 'read', 'file_read'],
      ['NotebookEdit', 'mutate', 'file_edit'],
      ['BashOutput', 'poll', 'api_call'],
    ]);
  });

  it('classifies the Gemini CLI tools', () => {
    expectKinds([
      ['read_file', 'read', 'file_read'],
      ['replace', 'mutate', 'file_edit'],
      ['write_file', 'mutate', 'file_edit'],
      ['run_shell_command', 'exec', 'shell_exec'],
      ['glob', 'search', 'search'],
      ['search_file_content', 'search', 'search'],
      ['web_fetch', 'api', 'api_call'],
      ['google_web_search', 'search', 'search'],
      ['save_memory', 'other', 'other'],
    ]);
  });

  it('classifies the Codex tools', () => {
    expectKinds([
      ['shell', 'exec', 'shell_exec'],
      ['apply_patch', 'mutate', 'file_edit'],
      ['update_plan', 'other', 'other'],
    ]);
  });

  it('classifies the MCP filesystem server tools by name alone', () => {
    expectKinds([
      ['read_text_file', 'read', 'file_read'],
      ['edit_file', 'mutate', 'file_edit'],
      ['write_file', 'mutate', 'file_edit'],
      ['create_directory', 'create', 'file_create'],
      ['move_file', 'mutate', 'file_edit'],
      ['search_files', 'search', 'search'],
      ['list_directory', 'read', 'file_read'],
      ['directory_tree', 'read', 'file_read'],
      ['get_file_info', 'read', 'file_read'],
    ]);
  });

  it('classifies git and GitHub tools', () => {
    expectKinds([
      ['git_create_branch', 'create', 'file_create'],
      ['git_diff', 'read', 'file_read'],
      ['git_commit', 'mutate', 'file_edit'],
      ['create_or_update_file', 'mutate', 'file_edit'],
      ['delete_branch', 'delete', 'delete'],
      ['get_issue', 'read', 'file_read'],
    ]);
  });

  it('reads the subcommand of an editor tool', () => {
    expect(classify('str_replace_based_edit_tool', { command: 'view', path: '/a' }).kind).toBe('read');
    expect(classify('str_replace_based_edit_tool', { command: 'create', path: '/a' }).kind).toBe('create');
    expect(classify('str_replace_based_edit_tool', { command: 'str_replace', path: '/a' }).kind).toBe(
      'mutate',
    );
  });
});

describe('naming conventions', () => {
  it('reads snake, camel, pascal, kebab and dotted names alike', () => {
    for (const name of ['read_file', 'readFile', 'ReadFile', 'read-file', 'fs.read', 'files/read']) {
      expect({ name, kind: classify(name).kind }).toEqual({ name, kind: 'read' });
    }
  });

  it('drops the server part of Claude Code MCP names', () => {
    expect(classify('mcp__memory__create_entities').kind).toBe('create');
    expect(classify('mcp__github__get_issue').kind).toBe('read');
    expect(classify('mcp__shell-server__delete_file').kind).toBe('delete');
  });

  it('drops the server part of Gemini CLI MCP names', () => {
    expect(classify('mcp_github_create_issue').kind).toBe('create');
    expect(classify('mcp_memory_read_graph').kind).toBe('read');
  });

  it('falls back to the whole name when an MCP prefix has no server', () => {
    expect(classify('mcp_read_file').kind).toBe('read');
  });

  it('matches whole words only', () => {
    expect(classify('spreadsheet_summary', { path: 'a.csv' }).kind).toBe('read');
    expect(classify('thread_reply', { text: 'hi' }).kind).toBe('other');
  });

  it('lets a heavier verb win when a name joins two', () => {
    expect(classify('get_or_create_label').kind).toBe('create');
    expect(classify('find_and_replace').kind).toBe('mutate');
    expect(classify('search_replace').kind).toBe('mutate');
  });

  it('turns reads of remote things into API calls', () => {
    expect(classify('get_url').kind).toBe('api');
    expect(classify('http_request').kind).toBe('api');
    expect(classify('post_message').kind).toBe('api');
  });

  it('reads a name that opens with a question as a read, whatever verb follows', () => {
    expectKinds([
      ['can_send_mms', 'read', 'file_read'],
      ['isDeleted', 'read', 'file_read'],
      ['has_write_access', 'read', 'file_read'],
      ['should_create_branch', 'read', 'file_read'],
      ['mcp__phone__can_send_mms', 'read', 'file_read'],
    ]);
  });

  it('reads the question word only where it opens the name', () => {
    expect(classify('send_mms').kind).toBe('api');
    expect(classify('scan_and_send').kind).toBe('api');
    expect(classify('cancel_order').kind).toBe('api');
  });
});

describe('annotations', () => {
  it('narrowing own kind wins over everything', () => {
    expect(classify('delete_file', {}, { narrowing: { kind: 'read' } })).toEqual({
      kind: 'read',
      actionClass: 'file_read',
    });
  });

  it('ignores a narrowing kind it does not know', () => {
    const annotations = { narrowing: { kind: 'teleport' } } as unknown as ToolAnnotations;
    expect(classify('read_file', {}, annotations)).toEqual({ kind: 'read', actionClass: 'file_read' });
  });

  it('read-only hints win over a name that writes', () => {
    expect(classify('update_cache', {}, { readOnlyHint: true }).kind).toBe('read');
  });

  it('read-only hints keep a search a search', () => {
    expect(classify('search_files', {}, { readOnlyHint: true }).kind).toBe('search');
  });

  it('a write hint overrides a name that only reads', () => {
    expect(classify('get_token', {}, { readOnlyHint: false, idempotentHint: true }).kind).toBe('mutate');
  });

  it('a write hint keeps the write kind the name gives', () => {
    expect(classify('create_directory', {}, { readOnlyHint: false, idempotentHint: true }).kind).toBe(
      'create',
    );
    expect(classify('purge_cache', {}, { readOnlyHint: false, destructiveHint: true }).kind).toBe('delete');
  });

  it('a write hint leaves a tool named for waiting or asking how something stands a poll', () => {
    expect(classify('browser_wait_for', { time: 3 }, { readOnlyHint: false, openWorldHint: true }).kind).toBe(
      'poll',
    );
    expect(classify('get_export_status', { export_id: 'exp_41' }, { readOnlyHint: false }).kind).toBe('poll');
  });

  it('a destructive hint is taken at its word, whatever the name polls', () => {
    expect(
      classify('wait_and_purge_queue', {}, { readOnlyHint: false, destructiveHint: true }).kind,
    ).not.toBe('poll');
  });

  it('classifies every real filesystem server tool with its own annotations', () => {
    const write = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    expect(classify('write_file', { path: '/a', content: 'x' }, write).kind).toBe('mutate');
    expect(classify('directory_tree', { path: '/a' }, { readOnlyHint: true }).kind).toBe('read');
  });

  it('configured kinds beat MCP hints but not narrowing own kind', () => {
    const custom = createToolCallAdapter({ toolKinds: { frobnicate: 'delete' } });
    const proposal = toolCallToProposal('frobnicate', {}, { annotations: { readOnlyHint: true } });
    expect(custom.describeCall(proposal).kind).toBe('delete');
    const pinned = toolCallToProposal('frobnicate', {}, { annotations: { narrowing: { kind: 'search' } } });
    expect(custom.describeCall(pinned).kind).toBe('search');
  });
});

describe('argument shape, when the name says nothing', () => {
  it('reads a command as exec', () => {
    expect(classify('do_it', { command: 'ls' }).kind).toBe('exec');
  });

  it('reads old and new strings as an edit', () => {
    expect(classify('do_it', { path: 'a', old_string: 'x', new_string: 'y' }).kind).toBe('mutate');
  });

  it('reads content with a path as a write', () => {
    expect(classify('do_it', { path: 'a', content: 'x' }).kind).toBe('mutate');
  });

  it('reads a URL as an API call', () => {
    expect(classify('do_it', { url: 'https://x.dev' }).kind).toBe('api');
  });

  it('reads a query or pattern as a search', () => {
    expect(classify('do_it', { query: 'x' }).kind).toBe('search');
    expect(classify('do_it', { pattern: '*.ts' }).kind).toBe('search');
  });

  it('reads a path alone as a read', () => {
    expect(classify('do_it', { path: 'a' }).kind).toBe('read');
  });

  it('gives other when nothing is known', () => {
    expect(classify('do_it', { x: 1 })).toEqual({ kind: 'other', actionClass: 'other' });
  });

  it('reads argument names alike after a call with a thousand distinct argument names', () => {
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, index) => [`field_${index}`, index]));
    expect(classify('do_it', many).kind).toBe('other');
    expect(classify('do_it', { File_Path: 'a', Old_String: 'x', 'new-string': 'y' }).kind).toBe('mutate');
    expect(classify('do_it', { 'Command-Line': 'ls' }).kind).toBe('exec');
  });
});

describe('poll tools', () => {
  it('detects status, wait, progress and health names', () => {
    for (const name of ['get_job_status', 'wait_for_deployment', 'getProgress', 'health_check', 'poll']) {
      expect({ name, kind: classify(name).kind }).toEqual({ name, kind: 'poll' });
    }
  });

  it('detects reads of job-like things', () => {
    expect(classify('get_job').kind).toBe('poll');
    expect(classify('get_workflow_run').kind).toBe('poll');
  });

  it('detects reads of several job-like things at once', () => {
    expect(classify('get_check_runs').kind).toBe('poll');
    expect(classify('describe_deployments').kind).toBe('poll');
    expect(classify('get_jobs').kind).toBe('poll');
  });

  it('keeps the file class for file polls', () => {
    expect(classify('wait_for_file')).toEqual({ kind: 'poll', actionClass: 'file_read' });
  });

  it('does not call a write of a status a poll', () => {
    expect(classify('update_status').kind).toBe('mutate');
    expect(classify('create_status').kind).toBe('create');
  });

  it('keeps a question about a job a poll', () => {
    expect(classify('is_build_status_green').kind).toBe('poll');
  });

  it('does not call a list of jobs a poll', () => {
    expect(classify('list_jobs').kind).toBe('read');
  });
});
