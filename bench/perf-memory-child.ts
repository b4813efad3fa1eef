/**
 * The memory run in a process of its own. Usage: node --expose-gc --import tsx perf-memory-child.ts
 * <calls> <time limit in ms> <source|dist>. Prints the figure as one JSON line; progress goes to
 * standard error.
 */
import { loadPerfEngine } from './perf-engine.js';
import { memoryRun } from './perf-memory.js';

const [callsText, budgetText, engineKind] = process.argv.slice(2);
const calls = Number(callsText);
const budgetMs = Number(budgetText);
if (
  !Number.isSafeInteger(calls) ||
  !Number.isSafeInteger(budgetMs) ||
  !['source', 'dist'].includes(engineKind ?? '')
) {
  process.stderr.write('usage: perf-memory-child.ts <calls> <time limit in ms> <source|dist>\n');
  process.exit(2);
}
const engine = await loadPerfEngine(engineKind as 'source' | 'dist');
const figure = memoryRun(engine, calls, budgetMs, (message) =>
  process.stderr.write(`progress: ${message}\n`),
);
process.stdout.write(`${JSON.stringify(figure)}\n`);
