/**
 * One fresh process of the cold-start measurement. Usage: node perf-cold-child.mjs <engine base URL>
 * <module extension> <calls file> <cold calls> <steady calls> [each]. The calls are read before the
 * engine is imported; the engine's import, the guard's construction and every one of the first calls
 * are timed apart, then, after a warm-up, the mean of the steady state. Prints one JSON line. With
 * `each`, the first 100 calls are timed one by one (`each`, CPU nanoseconds), and the segments among
 * them are the sums of those.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [base, extension, file, coldText, steadyText, each, bundle, cacheDir] = process.argv.slice(2);
const calls = JSON.parse(readFileSync(file, 'utf8'));
const cold = Number(coldText);
const steady = Number(steadyText);

const importStarted = performance.now();
const importCpu = process.cpuUsage();
const { cache, installNativeHash, NarrowingEngine, ...adapter } = bundle
  ? await runBundle()
  : await importBuild();
installNativeHash();
const importMs = performance.now() - importStarted;
const importCpuUsed = process.cpuUsage(importCpu);
const importCpuMs = (importCpuUsed.user + importCpuUsed.system) / 1000;

/** The build's modules, imported as a program that uses the library does. */
async function importBuild() {
  const { installNativeHash } = await import(`${base}node/native-hash${extension}`);
  const { NarrowingEngine } = await import(`${base}core/loop${extension}`);
  const adapter = await import(`${base}adapters/tool-call/index${extension}`);
  return { cache: 'none', installNativeHash, NarrowingEngine, ...adapter };
}

/** The bundle, compiled with V8's code cache by the build's own loader, as the command line runs its bundle. */
async function runBundle() {
  const { compileCachedScript } = await import(`${base}node/code-cache${extension}`);
  const script = compileCachedScript({
    file: bundle,
    name: 'cold-start',
    parameters: ['exports', 'require', 'module'],
    cacheDir,
  });
  const module = { exports: {} };
  script.run(module.exports, createRequire(bundle), module);
  return { cache: script.cache, ...module.exports };
}

let now = Date.UTC(2026, 0, 5, 9);
const openStarted = performance.now();
const engine = new NarrowingEngine({
  adapter: adapter.createToolCallAdapter(),
  clock: { now: () => now },
  sessionId: 'cold',
});
const openMs = performance.now() - openStarted;

function call(index) {
  const { tool, args, result } = calls[index];
  now += 2_000;
  engine.checkProposal(adapter.toolCallToProposal(tool, args));
  engine.recordOutcome(adapter.toolCallToOutcome(tool, args, result));
}

/** Mean CPU nanoseconds per call of calls `from` to `to` (excluded): a busy machine's pauses do not count. */
function cpuPerCall(from, to) {
  const started = process.cpuUsage();
  for (let index = from; index < to; index++) call(index);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / (to - from);
}

const segments = [
  ['first', 0, 1],
  ['calls2To10', 1, 10],
  ['calls11To100', 10, 100],
  ['calls101To1000', 100, cold],
];
const figure = { importMs, importCpuMs, openMs, cache };
if (each === 'each') {
  figure.each = [];
  for (let index = 0; index < 100; index++) figure.each.push(cpuPerCall(index, index + 1));
  for (const [name, from, to] of segments) {
    if (to <= 100) figure[name] = figure.each.slice(from, to).reduce((sum, ns) => sum + ns, 0) / (to - from);
  }
  figure.calls101To1000 = cpuPerCall(100, cold);
} else for (const [name, from, to] of segments) figure[name] = cpuPerCall(from, to);
cpuPerCall(cold, calls.length - steady);
figure.steady = cpuPerCall(calls.length - steady, calls.length);
process.stdout.write(`${JSON.stringify(figure)}\n`);
