/**
 * Shape 8 of the judgement issue: whose fault a failure is, by general rules. Each text is one a real
 * tool or harness prints.
 */
import { describe, expect, it } from 'vitest';
import { failureOf } from './helpers.js';

const blameOf = (text: string, tool = 'some_tool', args: Record<string, unknown> = {}) =>
  failureOf(tool, args, text)?.blame;

describe('generic network failures are the environment’s', () => {
  it('blames the network for an errno of the connection family, whichever member it is', () => {
    expect(blameOf('Error: connect EHOSTDOWN 10.0.0.2:443')).toBe('harness_fault');
    expect(blameOf('Error: read ECONNRESET')).toBe('harness_fault');
  });

  it('blames the network for any resolver failure code', () => {
    expect(blameOf('Error: getaddrinfo EAI_AGAIN api.openai.com')).toBe('harness_fault');
  });

  it('blames the network for a client that has no connection at all', () => {
    expect(blameOf('Network error')).toBe('harness_fault');
    expect(blameOf('The Internet connection appears to be offline.')).toBe('harness_fault');
  });

  it('blames the network for a git transfer cut short', () => {
    const text =
      'error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err 8)\nfatal: the remote end hung up unexpectedly';
    expect(blameOf(text, 'Bash', { command: 'git clone https://github.com/octo/big.git' })).toBe(
      'harness_fault',
    );
  });
});

describe('a broken environment is the environment’s', () => {
  it('blames the environment when env cannot find the interpreter a script names', () => {
    expect(
      blameOf("/usr/bin/env: 'python': No such file or directory", 'Bash', { command: './run.py' }),
    ).toBe('harness_fault');
  });

  it('blames the environment for a missing shared library', () => {
    const text =
      'python3: error while loading shared libraries: libpython3.11.so.1.0: cannot open shared object file: No such file or directory';
    expect(blameOf(text, 'Bash', { command: 'python3 app.py' })).toBe('harness_fault');
  });

  it('blames the environment when the working directory was removed under the shell', () => {
    const text =
      'shell-init: error retrieving current directory: getcwd: cannot access parent directories: No such file or directory';
    expect(blameOf(text, 'Bash', { command: 'ls' })).toBe('harness_fault');
  });

  it('blames the environment for an interpreter without its standard library', () => {
    expect(blameOf('/venv/bin/python: No module named pip', 'Bash', { command: 'python -m pip list' })).toBe(
      'harness_fault',
    );
  });

  it('still blames the agent for a module of its own that is missing', () => {
    expect(blameOf("ModuleNotFoundError: No module named 'billing_utils'", 'Bash')).toBe('agent_failure');
  });
});

describe('a missing MCP server is the environment’s', () => {
  it('blames the harness when the server a tool belongs to is not found', () => {
    expect(blameOf("MCP server 'github' not found")).toBe('harness_fault');
  });

  it('blames the harness when no such server is configured', () => {
    expect(blameOf('Error: No MCP server named "linear" is configured')).toBe('harness_fault');
  });

  it('blames the harness when the server failed to start', () => {
    expect(blameOf('Failed to start MCP server: spawn uvx ENOENT')).toBe('harness_fault');
  });

  it('still blames the call for a tool name the server does not have', () => {
    expect(blameOf('MCP error -32602: Tool search_issuez not found')).toBe('agent_failure');
  });
});

describe('cancelled calls are the environment’s', () => {
  it('blames the harness for a call cancelled because a sibling call errored', () => {
    expect(blameOf('<tool_use_error>Sibling tool call errored</tool_use_error>', 'Read')).toBe(
      'harness_fault',
    );
    expect(blameOf('Cancelled: parallel tool call Bash(npm test) errored', 'Read')).toBe('harness_fault');
  });

  it('blames the harness for a call the user interrupted', () => {
    expect(blameOf('[Request interrupted by user for tool use]', 'Bash')).toBe('harness_fault');
  });

  it('blames the harness for a bare cancellation', () => {
    expect(blameOf('Cancelled.')).toBe('harness_fault');
    expect(blameOf('context canceled')).toBe('harness_fault');
  });
});

describe('a tool’s internal error is the environment’s', () => {
  it('blames the tool for an exception raised inside its own code', () => {
    expect(blameOf("Error executing tool get_issue: 'NoneType' object has no attribute 'get'")).toBe(
      'harness_fault',
    );
  });

  it('blames the tool for a JSON-RPC internal error that carries a runtime exception', () => {
    expect(blameOf("MCP error -32603: TypeError: Cannot read properties of undefined (reading 'map')")).toBe(
      'harness_fault',
    );
  });

  it('blames nobody for an internal error that says nothing more', () => {
    expect(blameOf('Internal error')).toBe('unknown');
  });

  it('still blames the agent for an exception in the code it ran itself', () => {
    const text =
      'Traceback (most recent call last):\n  File "/w/report.py", line 3, in <module>\n    totals["march"]\nKeyError: \'march\'';
    expect(blameOf(text, 'Bash', { command: 'python3 report.py' })).toBe('agent_failure');
  });
});

describe('file-conversion failures are the environment’s', () => {
  it('blames the tool for a document it could not convert', () => {
    expect(blameOf('File conversion failed: UnsupportedFormatException', 'convert_to_markdown')).toBe(
      'harness_fault',
    );
    expect(blameOf('Error: Failed to convert report.pdf to text', 'read_document')).toBe('harness_fault');
  });
});

describe('authorisation errors are never unknown', () => {
  it('blames the session for a service that requires authentication', () => {
    expect(blameOf('{"message":"Requires authentication","status":"401"}')).toBe('harness_fault');
  });

  it('blames the session for an API key the service does not accept', () => {
    expect(blameOf('API key not valid. Please pass a valid API key.')).toBe('harness_fault');
  });

  it('blames the session for a push the remote refuses to the principal', () => {
    expect(
      blameOf('remote: Permission to octo/repo.git denied to bot.\nfatal: unable to access', 'Bash'),
    ).toBe('harness_fault');
  });

  it('blames the session for a bare forbidden answer', () => {
    expect(blameOf('Error: Forbidden')).toBe('harness_fault');
  });
});

describe('malformed URLs are the agent’s', () => {
  it('blames the call for a URL no parser accepts', () => {
    expect(blameOf("TypeError [ERR_INVALID_URL]: Invalid URL\n    input: 'api/v1/items'", 'fetch')).toBe(
      'agent_failure',
    );
  });

  it('blames the call for a URL without a scheme', () => {
    const text =
      "requests.exceptions.MissingSchema: Invalid URL 'example.com/api': No scheme supplied. Perhaps you meant https://example.com/api?";
    expect(blameOf(text, 'Bash')).toBe('agent_failure');
  });

  it('blames the call for a host name that holds a path', () => {
    expect(blameOf('Error: getaddrinfo ENOTFOUND api.example.com/v1', 'fetch')).toBe('agent_failure');
  });

  it('blames the call for a scheme curl does not speak', () => {
    expect(blameOf('curl: (1) Protocol "htps" not supported', 'Bash')).toBe('agent_failure');
  });
});

describe('refused imports are the agent’s', () => {
  it('blames the code for an import the sandbox does not authorise', () => {
    const text =
      "InterpreterError: Import of requests is not allowed. Authorized imports are: ['math', 're', 'json']";
    expect(blameOf(text, 'python_interpreter')).toBe('agent_failure');
  });
});

describe('guessed archive URLs are the agent’s', () => {
  it('blames the call when the download it unpacks is no archive', () => {
    const text =
      'gzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now';
    expect(
      blameOf(text, 'Bash', { command: 'curl -sL https://github.com/o/r/archive/v9.9.tar.gz | tar xz' }),
    ).toBe('agent_failure');
  });

  it('blames the call when the zip it opens is an error page', () => {
    const text =
      'Archive:  tool.zip\n  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.';
    expect(blameOf(text, 'Bash', { command: 'unzip tool.zip' })).toBe('agent_failure');
  });
});
