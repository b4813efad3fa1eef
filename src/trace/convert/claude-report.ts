import type { ClaudeConversionReport } from './claude.js';

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function byType(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
}

/**
 * What a conversion did, in a few lines for standard error: the calls converted, and every line
 * left out, by why. Nothing is left out without being counted here.
 */
export function describeClaudeConversion(report: ClaudeConversionReport): string[] {
  const { calls, subagentCalls, subagents, cancelled } = report;
  let first = `${count(calls, 'call')} converted`;
  if (subagentCalls > 0)
    first += ` (${subagentCalls} by ${count(subagents, 'subagent')}, marked with "agent")`;
  if (cancelled > 0) first += `; ${cancelled} cancelled by the user, kept without a result`;
  const lines = [first];
  const skipped: string[] = [];
  if (report.notJson > 0) skipped.push(`${count(report.notJson, 'line')} not JSON`);
  if (report.tooLong > 0) skipped.push(`${count(report.tooLong, 'line')} too long to read`);
  const unknown = Object.values(report.unknownTypes).reduce((sum, n) => sum + n, 0);
  if (unknown > 0) skipped.push(`${count(unknown, 'line')} of unknown type (${byType(report.unknownTypes)})`);
  if (report.orphanResults > 0) skipped.push(`${count(report.orphanResults, 'result')} without their call`);
  if (skipped.length > 0) lines.push(`skipped: ${skipped.join('; ')}`);
  if (Object.keys(report.bookkeeping).length > 0)
    lines.push(`left out, as they hold no message: ${byType(report.bookkeeping)}`);
  return lines;
}
