import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { shellEffectsOf } from '../../../src/adapters/tool-call/shell-effects.js';
import { extractTargets } from '../../../src/adapters/tool-call/targets.js';
import {
  lineEffectsOf,
  lineOperands,
  parseWindowsLine,
  readsAsWindowsShell,
  windowsAttemptKey,
} from '../../../src/adapters/tool-call/windows-shell.js';
import { adapter } from './helpers.js';

describe('reading a command line for a Windows shell', () => {
  it('reads a PowerShell read of a file and an editor read of it as one file', () => {
    expect(lineOperands('Get-Content C:\\Users\\dana\\app\\src\\main.ts')).toEqual(
      extractTargets({ file_path: 'c:/Users/dana/app/src/main.ts' }),
    );
  });

  it('tells a PowerShell line by a cmdlet, $env:, a here-string, a drive path or powershell -Command', () => {
    for (const line of [
      'Get-ChildItem -Recurse -Filter *.md',
      '$env:NODE_ENV = "test"; npm test',
      "$text = @'\nhello\n'@",
      'python C:\\Users\\dana\\app\\sync.py',
      'powershell.exe -NoLogo -Command rg --files',
      'git status; Select-String -Pattern TODO -Path src\\*.ts',
    ])
      expect(readsAsWindowsShell(line), line).toBe(true);
  });

  it('leaves POSIX lines to the POSIX reader, whatever they hold', () => {
    for (const line of [
      'grep -rn "TODO" src/ | head -20',
      "sed -i 's/a/b/' src/app.ts",
      'cd /srv/app && npm run build > build.log 2>&1',
      'cat <<EOF > notes.md\nhello\nEOF',
      'git checkout -b fix/login',
      'echo "C:\\\\Users" | tr a b',
      'python3 -c "at = \'@\'\nprint(at * 3)"',
    ]) {
      expect(readsAsWindowsShell(line), line).toBe(false);
      expect(lineEffectsOf(line)).toEqual(shellEffectsOf(line));
    }
  });

  it.each([
    ["Set-Content -Path src\\config.json -Value '{}'", ['src/config.json']],
    ['Add-Content notes.md "- done"', ['notes.md']],
    ['Get-Process | Out-File -FilePath C:\\Temp\\procs.txt', ['C:/Temp/procs.txt']],
    ['New-Item -ItemType Directory -Path docs\\adr -Force', ['docs/adr']],
    ['New-Item -Path src -Name index.ts -ItemType File', ['src/index.ts']],
    ['Remove-Item build\\out.js, build\\out.map -Force', ['build/out.js', 'build/out.map']],
    ['Copy-Item .env.example -Destination .env', ['.env']],
    ['Move-Item old\\a.ts new\\a.ts', ['old/a.ts', 'new/a.ts']],
    ['Rename-Item src\\app.js app.ts', ['src/app.js', 'src/app.ts']],
    ['Expand-Archive tools.zip -DestinationPath C:\\tools', ['C:/tools']],
    ['Get-Date > C:\\logs\\stamp.txt', ['C:/logs/stamp.txt']],
    ['$gone = Remove-Item old.log, new.log -PassThru', ['old.log', 'new.log']],
    ['(Get-Content a.py) -replace "x", "y" | Set-Content a.py', ['a.py']],
    [
      "powershell.exe -NoLogo -Command Set-Content -Path 'docs/plan.md' -Value @'\n# Plan\n'@",
      ['docs/plan.md'],
    ],
  ])('reads what %j writes', (line, touched) => {
    const effects = lineEffectsOf(line, true);
    expect(effects.onlyLooks).toBe(false);
    expect(effects.touchesOnly).toBe(true);
    expect(effects.touches).toEqual(touched);
  });

  it.each([
    'Get-Content -Raw -LiteralPath C:\\app\\README.md',
    'Select-String -Pattern "TODO" -Path src\\*.ts',
    'Get-ChildItem -Force | Select-Object -First 20',
    "Test-Path 'C:\\app\\package.json'",
    'dir C:\\Users\\dana\\app',
    'type C:\\app\\.env.example',
    'git log --oneline -5',
    'rg -n "useState" src 2>$null',
    'Get-Content app.log -Tail 50 | Out-Null',
  ])('reads %j as a look that changes nothing', (line) => {
    const effects = lineEffectsOf(line, true);
    expect(effects.onlyLooks).toBe(true);
    expect(effects.touches).toEqual([]);
  });

  it.each([
    'npm install',
    'git checkout -- src\\app.ts',
    '$path = "C:\\app\\a.txt"; Set-Content -Path $path -Value x',
    "[IO.File]::WriteAllText('C:\\app\\a.txt', 'x')",
    '.\\scripts\\setup.ps1',
    'function Reset-Cache { Remove-Item cache -Recurse }; Reset-Cache',
    'Remove-Item -Path build -Include *.js -Recurse',
  ])('leaves what %j changes open', (line) => {
    const effects = lineEffectsOf(line, true);
    expect(effects.onlyLooks).toBe(false);
    expect(effects.touchesOnly && !effects.changesTree).toBe(false);
  });

  it('reads a line that moves to a drive folder and runs a script as a change it cannot name', () => {
    const effects = lineEffectsOf(
      'cd C:\\app; powershell.exe -ExecutionPolicy Bypass -File scripts/audit.ps1',
    );
    expect(effects.onlyLooks).toBe(false);
    expect(effects.touchesOnly).toBe(false);
  });

  it('keys one attempt by its words, whatever quotes spell them, and keeps separators and splits apart', () => {
    expect(windowsAttemptKey("Get-Content 'C:\\app\\a b.txt'")).toBe(
      windowsAttemptKey('Get-Content "C:\\app\\a b.txt"'),
    );
    expect(windowsAttemptKey('cd C:\\app; ls')).not.toBe(windowsAttemptKey('cd C:\\app && ls'));
    expect(windowsAttemptKey('ls docs/Design\\ Notes')).not.toBe(windowsAttemptKey("ls 'docs/Design Notes'"));
    expect(windowsAttemptKey('Write-Output "$ref"')).not.toBe(windowsAttemptKey("Write-Output '$ref'"));
  });

  it('reads any line in bounded work without throwing', () => {
    const pieces = fc.constantFrom(
      'Get-Content ',
      'Set-Content ',
      '-Path ',
      'C:\\app\\a.ts',
      "'",
      '"',
      '`',
      "@'\n",
      "\n'@",
      '$(',
      ')',
      '{',
      '}',
      '|',
      ';',
      '&&',
      '>',
      '2>&1',
      ',',
      '#',
      '<#',
      '#>',
      ' ',
      '\n',
      '$env:X',
      'powershell -Command ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 60 }), (parts) => {
        const line = parts.join('');
        parseWindowsLine(line);
        windowsAttemptKey(line);
        const effects = lineEffectsOf(line, true);
        expect(Array.isArray(effects.touches)).toBe(true);
      }),
      { numRuns: 400 },
    );
    const long = 'Get-Content a.ts; '.repeat(2_000);
    expect(lineEffectsOf(long, true).onlyLooks).toBe(false);
    expect(parseWindowsLine(`${'('.repeat(5_000)}x`)).toBeDefined();
  });

  it('reads a Codex call that runs PowerShell, as a list or in a working directory on a drive', () => {
    const listed = adapter.describeCall(
      toolCallToProposal('shell', {
        command: ['powershell.exe', '-Command', "Set-Content -Path 'src\\app.config.json' -Value '{}'"],
        workdir: 'C:\\Users\\dana\\app',
      }),
    );
    expect(listed.touches).toEqual(['src/app.config.json']);
    const read = adapter.describeCall(
      toolCallToProposal('shell', { command: 'type src\\app.ts', workdir: 'C:\\Users\\dana\\app' }),
    );
    expect(read.changesNothing).toBe(true);
  });

  it('reads a Gemini CLI command in a folder on a drive as PowerShell reads it', () => {
    const facts = adapter.describeCall(
      toolCallToProposal('run_shell_command', {
        command: 'Remove-Item dist\\bundle.js',
        dir_path: 'C:\\Users\\dana\\app',
      }),
    );
    expect(facts.touches).toEqual(['dist/bundle.js']);
  });
});
