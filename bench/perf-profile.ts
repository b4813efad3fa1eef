/**
 * Where one class of `bench perf`'s calls spends its time: one build, in this process, after the
 * warm-up `perf-process-ab.ts` gives it, its calls made under V8's sampling profiler. Prints the
 * functions with the most time of their own and the most in everything they call, as shares of the
 * time the calls took (each function once per sample, however deep it recurses); `--tree NAME`
 * adds what the functions of that name call, as shares of the same whole.
 *
 *     npx tsx bench/perf-profile.ts [--new dist] [--only failingShort] [--calls 2000]
 *                                   [--constraints 1000] [--interval 100] [--top 25]
 *                                   [--tree recordOutcome] [--depth 2] [--save FILE.cpuprofile]
 *
 * Figures under a profiler are slower than without one, and a busy machine moves them: read the
 * shares, not the microseconds. `--save` writes the whole profile, for a profile viewer.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { BUILD_OPTIONS, runBlock } from './perf-ab.js';
import { warmedGuard } from './perf-process-ab.js';
import { scriptOptions } from './script.js';

/** A profile as V8's profiler returns it, with the parts read here. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  /** `name file:line`, the file as its last two parts of the path. */
  readonly frame: string;
  /** Shares of the time sampled within the root frame, from 0 to 1. */
  readonly self: number;
  readonly total: number;
}

export interface ProfileSplit {
  /** Microseconds sampled within the root frame. */
  readonly sampledUs: number;
  readonly bySelf: readonly ProfileShare[];
  readonly byTotal: readonly ProfileShare[];
  /** What the frames named `--tree` call, depth first, each line indented by its depth. */
  readonly tree: readonly { readonly depth: number; readonly share: ProfileShare }[];
}

type ProfileNode = CpuProfile['nodes'][number];

function frameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
}

/**
 * The profile's time within the frames named `root` (all of it when none is named so), by function:
 * the `top` with most time of their own, the `top` with most in all, and the callees of the frames
 * named `tree` down to `depth`, those under `minimum` of the whole left out.
 */
export function splitProfile(
  profile: CpuProfile,
  options: { root?: string; top?: number; tree?: string; depth?: number; minimum?: number } = {},
): ProfileSplit {
  const top = options.top ?? 25;
  const minimum = options.minimum ?? 0.005;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const own = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    own.set(id, (own.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const stackOf = (id: number): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.push(byId.get(at) as ProfileNode);
    return stack;
  };
  const rooted = (stack: readonly ProfileNode[]) =>
    options.root === undefined ||
    !profile.nodes.some((node) => node.callFrame.functionName === options.root) ||
    stack.some((node) => node.callFrame.functionName === options.root);
  const selfTime = new Map<string, number>();
  const totalTime = new Map<string, number>();
  /** Time within the root of each node, itself and below. */
  const nodeTotal = new Map<number, number>();
  let whole = 0;
  for (const [id, time] of own) {
    const stack = stackOf(id);
    if (!rooted(stack)) continue;
    whole += time;
    const leaf = frameOf(stack[0] as ProfileNode);
    selfTime.set(leaf, (selfTime.get(leaf) ?? 0) + time);
    const counted = new Set<string>();
    for (const node of stack) {
      nodeTotal.set(node.id, (nodeTotal.get(node.id) ?? 0) + time);
      const frame = frameOf(node);
      if (counted.has(frame)) continue;
      counted.add(frame);
      totalTime.set(frame, (totalTime.get(frame) ?? 0) + time);
    }
  }
  const share = (frame: string): ProfileShare => ({
    frame,
    self: whole === 0 ? 0 : (selfTime.get(frame) ?? 0) / whole,
    total: whole === 0 ? 0 : (totalTime.get(frame) ?? 0) / whole,
  });
  const ranked = (times: Map<string, number>) =>
    [...times.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, top)
      .map(([frame]) => share(frame));
  const tree: { depth: number; share: ProfileShare }[] = [];
  const walk = (nodes: readonly ProfileNode[], depth: number) => {
    const merged = new Map<string, { total: number; self: number; children: ProfileNode[] }>();
    for (const node of nodes) {
      const frame = frameOf(node);
      const entry = merged.get(frame) ?? { total: 0, self: 0, children: [] };
      entry.total += nodeTotal.get(node.id) ?? 0;
      entry.self += own.get(node.id) ?? 0;
      for (const child of node.children ?? []) entry.children.push(byId.get(child) as ProfileNode);
      merged.set(frame, entry);
    }
    const ordered = [...merged.entries()].sort((a, b) => b[1].total - a[1].total || a[0].localeCompare(b[0]));
    for (const [frame, entry] of ordered) {
      if (whole === 0 || entry.total / whole < minimum) continue;
      tree.push({ depth, share: { frame, self: entry.self / whole, total: entry.total / whole } });
      if (depth < (options.depth ?? 2)) walk(entry.children, depth + 1);
    }
  };
  if (options.tree !== undefined) {
    const named = profile.nodes.filter(
      (node) => node.callFrame.functionName === options.tree && nodeTotal.has(node.id),
    );
    walk(named, 0);
  }
  return { sampledUs: whole, bySelf: ranked(selfTime), byTotal: ranked(totalTime), tree };
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`.padStart(6);
}

export function formatProfileSplit(split: ProfileSplit, calls: number): string {
  const lines = [
    `${calls.toLocaleString('en-US')} calls, ${(split.sampledUs / Math.max(1, calls)).toFixed(1)} µs a call under the profiler`,
    '',
    '  self   total  most time of their own',
    ...split.bySelf.map((row) => `${percent(row.self)}  ${percent(row.total)}  ${row.frame}`),
    '',
    '  self   total  most time in all they call',
    ...split.byTotal.map((row) => `${percent(row.self)}  ${percent(row.total)}  ${row.frame}`),
  ];
  if (split.tree.length > 0) {
    lines.push('', '  self   total  what it calls');
    for (const { depth, share } of split.tree)
      lines.push(`${percent(share.self)}  ${percent(share.total)}  ${'  '.repeat(depth)}${share.frame}`);
  }
  return lines.join('\n');
}

const values = scriptOptions(import.meta.url, {
  new: BUILD_OPTIONS.new,
  only: { type: 'string', default: 'failingShort' },
  calls: { type: 'string', default: '2000' },
  constraints: { type: 'string', default: '1000' },
  interval: { type: 'string', default: '100' },
  top: { type: 'string', default: '25' },
  tree: { type: 'string' },
  depth: { type: 'string', default: '2' },
  save: { type: 'string' },
});
if (values) {
  const calls = Number(values.calls);
  const { guard, calls: chosen } = await warmedGuard(
    values.new,
    values.only,
    Number(values.constraints),
    calls * 2,
  );
  // The first half warms the class's own code, as `perf-process-ab.ts` times a block before its figures.
  runBlock(guard, chosen.slice(0, calls));
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: Number(values.interval) });
  await session.post('Profiler.start');
  runBlock(guard, chosen.slice(calls));
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  if (values.save !== undefined) writeFileSync(values.save, JSON.stringify(profile));
  const split = splitProfile(profile, {
    root: 'runBlock',
    top: Number(values.top),
    ...(values.tree !== undefined && { tree: values.tree }),
    depth: Number(values.depth),
  });
  process.stdout.write(`${values.only}: ${formatProfileSplit(split, calls)}\n`);
}
