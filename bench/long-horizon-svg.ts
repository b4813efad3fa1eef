/**
 * The long-horizon results as one SVG, written by hand so that it needs nothing installed and reads
 * on its own: repeated failures against horizon on the left, false blocks per run on the right.
 */
import type { LongHorizonReport, LongHorizonRow, Mode } from './long-horizon.js';
import { PUBLISHED_GUARD } from './long-horizon.js';
import { PUBLISHED_GUARD_CURVE } from './long-horizon-report.js';

const WIDTH = 1000;
const HEIGHT = 470;
const PLOT_TOP = 70;
const PLOT_BOTTOM = 360;
const LEFT = { x0: 70, x1: 450 };
const RIGHT = { x0: 540, x1: 970 };

const COLOURS: Record<Mode | 'paper', string> = {
  vanilla: '#c0392b',
  precise: '#1f6fb4',
  strict: '#2a9d55',
  paper: '#7f7f7f',
};
const LABELS: Record<Mode | 'paper', string> = {
  vanilla: 'vanilla (no guard)',
  precise: 'narrowing, precise preset',
  strict: 'narrowing, strict preset',
  paper: "paper's guard (published, seed 42)",
};

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function label(x: number, y: number, body: string, attributes = ''): string {
  return `<text x="${round(x)}" y="${round(y)}"${attributes ? ` ${attributes}` : ''}>${escapeXml(body)}</text>`;
}

/** A step of 1, 2 or 5 times a power of ten giving about five ticks up to `max`. */
function niceStep(max: number): number {
  const rough = Math.max(1, max) / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const factor = [1, 2, 5, 10].find((candidate) => candidate * power >= rough) ?? 10;
  return factor * power;
}

interface Axis {
  readonly max: number;
  readonly step: number;
  y(value: number): number;
}

function valueAxis(max: number): Axis {
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { max: top, step, y: (value) => PLOT_BOTTOM - ((PLOT_BOTTOM - PLOT_TOP) * value) / top };
}

function yGrid(axis: Axis, x0: number, x1: number, title: string): string[] {
  const out: string[] = [];
  for (let value = 0; value <= axis.max; value += axis.step) {
    const y = axis.y(value);
    out.push(`<line x1="${x0}" y1="${round(y)}" x2="${x1}" y2="${round(y)}" stroke="#e3e3e3"/>`);
    out.push(label(x0 - 8, y + 4, String(value), 'text-anchor="end" font-size="11"'));
  }
  out.push(`<line x1="${x0}" y1="${PLOT_TOP}" x2="${x0}" y2="${PLOT_BOTTOM}" stroke="#444"/>`);
  out.push(`<line x1="${x0}" y1="${PLOT_BOTTOM}" x2="${x1}" y2="${PLOT_BOTTOM}" stroke="#444"/>`);
  const middle = (PLOT_TOP + PLOT_BOTTOM) / 2;
  out.push(
    label(
      x0 - 42,
      middle,
      title,
      `text-anchor="middle" font-size="12" transform="rotate(-90 ${x0 - 42} ${middle})"`,
    ),
  );
  return out;
}

function curvePanel(report: LongHorizonReport): string[] {
  const { config, rows } = report;
  const seed = config.seeds[0] ?? 42;
  const horizons = [...config.curve].sort((a, b) => a - b);
  const point = (mode: Mode, calls: number) =>
    rows.find(
      (row) =>
        row.seed === seed && row.window === config.curveWindow && row.calls === calls && row.mode === mode,
    )?.repeatedFailures;
  const withPaper = seed === 42 && config.curveWindow === 20;
  const values = horizons.flatMap((calls) => config.modes.map((mode) => point(mode, calls) ?? 0));
  const axis = valueAxis(Math.max(1, ...values));
  const last = horizons[horizons.length - 1] ?? 1;
  const x = (calls: number) => LEFT.x0 + ((LEFT.x1 - LEFT.x0) * calls) / last;
  const out = yGrid(axis, LEFT.x0, LEFT.x1, 'repeated failures');
  out.push(
    label(
      (LEFT.x0 + LEFT.x1) / 2,
      PLOT_TOP - 16,
      `Repeated failures vs horizon (seed ${seed}, window ${config.curveWindow})`,
      'text-anchor="middle" font-size="13" font-weight="bold"',
    ),
  );
  for (const calls of horizons) {
    out.push(
      `<line x1="${round(x(calls))}" y1="${PLOT_BOTTOM}" x2="${round(x(calls))}" y2="${PLOT_BOTTOM + 4}" stroke="#444"/>`,
    );
    out.push(label(x(calls), PLOT_BOTTOM + 17, String(calls), 'text-anchor="middle" font-size="11"'));
  }
  out.push(
    label(
      (LEFT.x0 + LEFT.x1) / 2,
      PLOT_BOTTOM + 36,
      'tool calls in the run (horizon)',
      'text-anchor="middle" font-size="12"',
    ),
  );
  const series: { key: Mode | 'paper'; points: [number, number][]; dashed: boolean }[] = config.modes.map(
    (mode) => ({
      key: mode,
      points: horizons.flatMap((calls): [number, number][] => {
        const value = point(mode, calls);
        return value === undefined ? [] : [[calls, value]];
      }),
      dashed: false,
    }),
  );
  if (withPaper) {
    series.push({
      key: 'paper',
      points: PUBLISHED_GUARD_CURVE.map((entry): [number, number] => [entry.calls, entry.repeatedFailures]),
      dashed: true,
    });
  }
  for (const line of series) {
    if (line.points.length === 0) continue;
    const path = line.points.map(([calls, value]) => `${round(x(calls))},${round(axis.y(value))}`).join(' ');
    const dash = line.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline points="${path}" fill="none" stroke="${COLOURS[line.key]}" stroke-width="2.5"${dash}/>`,
    );
    for (const [calls, value] of line.points) {
      out.push(
        `<circle cx="${round(x(calls))}" cy="${round(axis.y(value))}" r="3.5" fill="${COLOURS[line.key]}"/>`,
      );
    }
  }
  return out;
}

function falseBlockPanel(report: LongHorizonReport): string[] {
  const { config, rows } = report;
  const modes = config.modes.filter((mode) => mode !== 'vanilla');
  const groups = config.windows.flatMap((window) => config.seeds.map((seed) => ({ window, seed })));
  const paper = (window: number, seed: number) =>
    seed === 42 && config.calls === 200
      ? PUBLISHED_GUARD.find((guard) => guard.window === window)
      : undefined;
  const falseBlocksOf = (window: number, seed: number, mode: Mode) =>
    rows.find(
      (row: LongHorizonRow) =>
        row.seed === seed && row.window === window && row.calls === config.calls && row.mode === mode,
    )?.falseBlocks ?? 0;
  const bars = modes.length + 1;
  const all = groups.flatMap(({ window, seed }) => [
    ...modes.map((mode) => falseBlocksOf(window, seed, mode)),
    paper(window, seed)?.falseBlocks ?? 0,
  ]);
  const axis = valueAxis(Math.max(1, ...all));
  const out = yGrid(axis, RIGHT.x0, RIGHT.x1, 'false blocks (calls that would have succeeded)');
  out.push(
    label(
      (RIGHT.x0 + RIGHT.x1) / 2,
      PLOT_TOP - 16,
      `False blocks per run (${config.calls} calls; seed per bar group)`,
      'text-anchor="middle" font-size="13" font-weight="bold"',
    ),
  );
  const groupWidth = (RIGHT.x1 - RIGHT.x0) / Math.max(1, groups.length);
  const barWidth = Math.max(1.5, (groupWidth * 0.8) / bars);
  groups.forEach(({ window, seed }, index) => {
    const left = RIGHT.x0 + index * groupWidth + groupWidth * 0.1;
    const entries: [Mode | 'paper', number | undefined][] = [
      ...modes.map((mode): [Mode, number] => [mode, falseBlocksOf(window, seed, mode)]),
      ['paper', paper(window, seed)?.falseBlocks],
    ];
    entries.forEach(([key, value], bar) => {
      if (value === undefined || value === 0) return;
      const y = axis.y(value);
      out.push(
        `<rect x="${round(left + bar * barWidth)}" y="${round(y)}" width="${round(barWidth)}" height="${round(PLOT_BOTTOM - y)}" fill="${COLOURS[key]}"/>`,
      );
    });
    out.push(
      label(
        left + (groupWidth * 0.8) / 2,
        PLOT_BOTTOM + 14,
        String(seed),
        'text-anchor="middle" font-size="9"',
      ),
    );
  });
  config.windows.forEach((window, index) => {
    const span = groupWidth * config.seeds.length;
    const x0 = RIGHT.x0 + index * span;
    if (index > 0) {
      out.push(
        `<line x1="${round(x0)}" y1="${PLOT_TOP}" x2="${round(x0)}" y2="${PLOT_BOTTOM + 30}" stroke="#bbb" stroke-dasharray="2 3"/>`,
      );
    }
    out.push(
      label(x0 + span / 2, PLOT_BOTTOM + 30, `window ${window}`, 'text-anchor="middle" font-size="12"'),
    );
  });
  const zero = modes.filter((mode) =>
    groups.every(({ window, seed }) => falseBlocksOf(window, seed, mode) === 0),
  );
  if (zero.length > 0) {
    out.push(
      label(
        (RIGHT.x0 + RIGHT.x1) / 2,
        PLOT_TOP + 14,
        `${zero.join(' and ')}: 0 false blocks in every run`,
        `text-anchor="middle" font-size="12" fill="${COLOURS[zero[0] ?? 'precise']}"`,
      ),
    );
  }
  return out;
}

function legend(report: LongHorizonReport): string[] {
  const keys: (Mode | 'paper')[] = [...report.config.modes, 'paper'];
  const out: string[] = [];
  const y = HEIGHT - 40;
  const slot = (WIDTH - 80) / keys.length;
  keys.forEach((key, index) => {
    const x = 40 + index * slot;
    const dash = key === 'paper' ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<line x1="${round(x)}" y1="${y}" x2="${round(x + 26)}" y2="${y}" stroke="${COLOURS[key]}" stroke-width="3"${dash}/>`,
    );
    out.push(label(x + 32, y + 4, LABELS[key], 'font-size="12"'));
  });
  out.push(
    label(
      WIDTH / 2,
      HEIGHT - 14,
      'Vanilla never blocks, so it has no false-block bars. Simulated agent with a limited memory window, mock codebase, Mulberry32 seeds.',
      'text-anchor="middle" font-size="11" fill="#555"',
    ),
  );
  return out;
}

export function longHorizonSvg(report: LongHorizonReport): string {
  const body = [
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    label(
      WIDTH / 2,
      28,
      'narrowing: long-horizon tool-call benchmark (repeats of earlier failures, and legitimate calls blocked)',
      'text-anchor="middle" font-size="16" font-weight="bold"',
    ),
    ...curvePanel(report),
    ...falseBlockPanel(report),
    ...legend(report),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
    '<title>narrowing long-horizon benchmark</title>',
    ...body.map((line) => `  ${line}`),
    '</svg>',
    '',
  ].join('\n');
}
