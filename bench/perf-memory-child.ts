/**
 * The memory run in a process of its own. Usage: node --expose-gc --import tsx perf-memory-child.ts
 * <calls> <time limit in ms>. Prints the figure as one JSON line; progress goes to standard error.
 */
import { memoryRun } from './perf-memory.js';

const [calls, budgetMs] = process.argv.slice(2).map(Number);
if (!Number.isSafeInteger(calls) || !Number.isSafeInteger(budgetMs)) {
  process.stderr.write('usage: perf-memory-child.ts <calls> <time limit in ms>\n');
  process.exit(2);
}
const figure = memoryRun(calls as number, budgetMs as number, (message) =>
  process.stderr.write(`progress: ${message}\n`),
);
process.stdout.write(`${JSON.stringify(figure)}\n`);
