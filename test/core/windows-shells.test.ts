import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** Gemini CLI's frame around a PowerShell command's output, as it returns it on Windows. */
function geminiOutput(command: string, output: string): string {
  return `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)`;
}

describe('commands run in Windows shells', () => {
  it('lets a PowerShell script run again after Set-Content rewrote the file its parse error names', () => {
    const agent = new Agent();
    const write = (body: string) =>
      `$body = @'\n${body}\n'@\n$body | Set-Content C:\\Users\\dana\\Projects\\inventory\\tools\\report.ps1`;
    const first = write('$lines = "# Stock report"\n$lines += "`n- **Host:** $env:COMPUTERNAME"');
    agent.call('run_shell_command', { command: first }, geminiOutput(first, '(empty)'));
    const run = {
      command:
        'cd C:\\Users\\dana\\Projects\\inventory; powershell.exe -ExecutionPolicy Bypass -File tools/report.ps1',
      description: 'Running the stock report script.',
    };
    const parseError = {
      text: geminiOutput(
        run.command,
        [
          'At C:\\Users\\dana\\Projects\\inventory\\tools\\report.ps1:2 char:11',
          '+ $lines += "`n- **Host:** $env:COMPUTERNAME"',
          '+           ~~~',
          "Unexpected token '`n-' in expression or statement.",
          '    + CategoryInfo          : ParserError: (:) [], ParseException',
          '    + FullyQualifiedErrorId : UnexpectedToken',
        ].join('\n'),
      ),
      isError: true,
    };
    agent.call('run_shell_command', run, parseError);
    expect(agent.check('run_shell_command', run).verdict).toBe('block');
    const second = write('$lines = "# Stock report"\n$lines += "`n- Host: " + $env:COMPUTERNAME');
    agent.call('run_shell_command', { command: second }, geminiOutput(second, '(empty)'));
    expect(agent.check('run_shell_command', run).verdict).toBe('allow');
  });

  it('lets a Python script run again after Set-Content wrote it under the working directory', () => {
    const agent = new Agent();
    const workdir = 'C:\\Users\\dana\\Projects\\inventory';
    const run = { command: 'python C:\\Users\\dana\\Projects\\inventory\\sync.py', workdir };
    const syntaxError = {
      text: [
        'Exit code: 1',
        'Wall time: 0.3 seconds',
        'Output:',
        '  File "C:\\Users\\dana\\Projects\\inventory\\sync.py", line 4',
        '    print("synced"',
        '         ^',
        "SyntaxError: '(' was never closed",
      ].join('\n'),
      isError: true,
    };
    agent.call('shell', run, syntaxError);
    expect(agent.check('shell', run).verdict).toBe('block');
    agent.call(
      'shell',
      { command: 'Set-Content -Path .\\sync.py -Value \'print("synced")\' -Encoding UTF8', workdir },
      '',
    );
    expect(agent.check('shell', run).verdict).toBe('allow');
  });

  it('keeps a ban on a failing build through a cmdlet that only reads', () => {
    const agent = new Agent();
    const workdir = 'D:\\work\\storefront';
    const build = { command: 'dotnet build Storefront.sln', workdir };
    const failed = {
      text: [
        'Exit code: 1',
        'Wall time: 4.1 seconds',
        'Output:',
        'MSBUILD : error MSB1009: Project file does not exist.',
        'Switch: Storefront.sln',
      ].join('\n'),
      isError: true,
    };
    agent.call('shell', build, failed);
    agent.call('shell', build, failed);
    expect(agent.check('shell', build).verdict).toBe('block');
    agent.call(
      'shell',
      { command: 'Get-Content -Raw -LiteralPath Api\\Orders.cs', workdir },
      'namespace Storefront.Api;\n',
    );
    expect(agent.check('shell', build).verdict).toBe('block');
  });

  it('blocks the repeat of a failing PowerShell command with backslashes in its path', () => {
    const agent = new Agent();
    const read = { command: 'Get-Content C:\\Users\\dana\\Projects\\inventory\\config\\stock.json' };
    const missing = {
      text: [
        "Get-Content : Cannot find path 'C:\\Users\\dana\\Projects\\inventory\\config\\stock.json' because it does not exist.",
        'At line:1 char:1',
        '+ Get-Content C:\\Users\\dana\\Projects\\inventory\\config\\stock.json',
        '    + CategoryInfo          : ObjectNotFound: (C:\\Users\\dana\\...nfig\\stock.json:String) [Get-Content], ItemNotFoundException',
      ].join('\n'),
      isError: true,
    };
    agent.call('shell', read, missing);
    agent.call('shell', read, missing);
    expect(agent.check('shell', read).verdict).toBe('block');
    expect(
      agent.check('shell', {
        command: 'Get-Content "C:\\Users\\dana\\Projects\\inventory\\config\\stock.json"',
      }).verdict,
    ).toBe('block');
  });

  it('takes a PowerShell command whose words split otherwise for another attempt', () => {
    const agent = new Agent();
    const workdir = 'g:\\work\\atlas';
    const split = { command: 'ls docs/Design\\ Notes', workdir };
    const failed = {
      text: [
        'Exit code: 1',
        'Output:',
        "ls : Cannot find path 'G:\\work\\atlas\\docs\\Design\\' because it does not exist.",
        'At line:1 char:1',
      ].join('\n'),
      isError: true,
    };
    agent.call('shell', split, failed);
    agent.call('shell', split, failed);
    expect(agent.check('shell', split).verdict).toBe('block');
    expect(agent.check('shell', { command: "ls 'docs/Design Notes'", workdir }).verdict).toBe('allow');
  });
});
