/** `narrowing bench sessions`: one row per check, PASS or FAIL, with its figures. */
import type { SessionsCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import { runSessionsBench, type SessionsReport } from './sessions.js';
import type { Section } from './table.js';

export async function sessionsCommand(options: SessionsCommandOptions, io: CommandIO): Promise<number> {
  const report = await runSessionsBench({
    ...(options.engine ? { engine: options.engine } : {}),
    onProgress: (message) => io.stderr.write(`… ${message}\n`),
  });
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatSessions(report)}\n`);
  return report.ok ? 0 : 1;
}

export function sessionsSections(report: SessionsReport): Section[] {
  return [
    {
      columns: [{ title: 'check' }, { title: 'result' }, { title: 'expected' }, { title: 'figures' }],
      rows: report.checks.map((check) => [
        check.title,
        check.pass ? 'PASS' : 'FAIL',
        check.expectation,
        check.summary,
      ]),
    },
  ];
}

export function formatSessions(report: SessionsReport): string {
  const lines = ['Sessions and blame: what carries over, and what never narrows the agent', ''];
  for (const check of report.checks) {
    lines.push(`${check.pass ? 'PASS' : 'FAIL'}  ${check.title}`);
    lines.push(`      expected: ${check.expectation}`);
    lines.push(`      ${check.summary}`);
  }
  const failed = report.checks.filter((check) => !check.pass).length;
  lines.push('', failed === 0 ? 'All checks pass.' : `${failed} of ${report.checks.length} checks FAILED.`);
  return lines.join('\n');
}
