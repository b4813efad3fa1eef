/**
 * The report as one HTML file that needs no network: uPlot's script and style inlined, the figures
 * as JSON the page's own script reads. Everything from the journal is text a tool or a model wrote,
 * so it is escaped wherever it lands, and a Content-Security-Policy lets only the page's own two
 * scripts (by hash) run: a `<script>` in a tool's output stays text.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dateTime, shortDuration } from '../time.js';
import type { ReportData } from './data.js';

const require = createRequire(import.meta.url);

/** uPlot's minified script and style, read from the installed package. */
export function uplotAssets(): { readonly script: string; readonly style: string } {
  return {
    script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}

/** Text safe in HTML content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON that cannot close the script element holding it, nor break a line in it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface RenderOptions {
  readonly title: string;
  /** Where the figures came from, as the user would type it. */
  readonly source: string;
  readonly timeZone?: string;
  readonly assets?: { readonly script: string; readonly style: string };
}

const CHART_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var t = data.timeline;
  var el = document.getElementById('timeline');
  if (!t.at.length || typeof uPlot === 'undefined') { el.textContent = 'No events to chart.'; return; }
  var series = [
    { label: 'calls', stroke: '#4c78a8' },
    { label: 'failures', stroke: '#e45756' },
    { label: 'warnings', stroke: '#f2a93b' },
    { label: 'blocks', stroke: '#b279a2', width: 2 },
    { label: 'compactions', stroke: '#72b7b2', dash: [4, 4] },
    { label: 'new prompts', stroke: '#54a24b', dash: [2, 3] }
  ];
  var opts = {
    width: Math.max(480, el.clientWidth || 900), height: 280,
    scales: { x: { time: true } },
    axes: [{}, { label: 'per ' + t.bucketSeconds + ' s' }],
    series: [{}].concat(series.map(function (s) { s.points = { show: true }; return s; }))
  };
  new uPlot(opts, [t.at, t.calls, t.failures, t.warnings, t.blocks, t.compactions, t.prompts], el);
})();`;

export function renderReportHtml(data: ReportData, options: RenderOptions): string {
  const assets = options.assets ?? uplotAssets();
  const library = assets.script.replace(/<\/(script)/gi, '<\\/$1');
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(library)}' '${sha256(CHART_SCRIPT)}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
  ].join('; ');
  const when =
    data.from === undefined || data.to === undefined
      ? 'no recorded time'
      : `${dateTime(data.from, options.timeZone)} to ${dateTime(data.to, options.timeZone)} (${shortDuration(data.to - data.from)})`;
  const { totals, saved } = data;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${assets.style.replace(/<\/(style)/gi, '<\\/$1')}</style>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #ddd; vertical-align: top; }
.figures { display: flex; flex-wrap: wrap; gap: 1rem; } .figure { border: 1px solid #ddd; border-radius: 6px; padding: .5rem 1rem; }
.figure b { display: block; font-size: 1.3rem; } code, .mono { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.muted { color: #666; }
</style>
</head>
<body>
<h1>${escapeHtml(options.title)}</h1>
<p class="muted">${escapeHtml(when)} · ${escapeHtml(options.source)} · ${data.sessions.length} session${data.sessions.length === 1 ? '' : 's'}${data.sessions.length > 0 ? `: <span class="mono">${escapeHtml(data.sessions.slice(0, 5).join(', '))}${data.sessions.length > 5 ? ', …' : ''}</span>` : ''}</p>
<div class="figures">
${figure('calls', totals.calls)}${figure('failures', totals.failures)}${figure('warnings', totals.warnings)}${figure('blocks', totals.blocks)}${figure('compactions', totals.compactions)}${figure('new prompts', totals.prompts)}${figure('disputed', totals.disputes)}
</div>
<h2>Timeline</h2>
<div id="timeline"></div>
<h2>What was saved</h2>
<div class="figures">
${figure('calls blocked', saved.callsBlocked)}${figure('repeats of a known failure prevented', saved.repeatsPrevented)}${figure('tokens spared (estimate)', `≈ ${saved.tokens}`)}${figure('time spared (estimate)', `≈ ${shortDuration(saved.seconds * 1000)}`)}
</div>
<p class="muted">How: ${escapeHtml(saved.method)} Here one call took ${escapeHtml(String(saved.secondsPerCall))} s.</p>
<h2>Blocks by rule</h2>
${rulesTable(data)}
<h2>Learned constraints, with their evidence</h2>
${constraintsTable(data, options.timeZone)}
<h2>Disputed verdicts</h2>
${disputesTable(data, options.timeZone)}
<script type="application/json" id="report-data">${scriptJson({ timeline: data.timeline })}</script>
<script>${library}</script>
<script>${CHART_SCRIPT}</script>
</body>
</html>
`;
}

function sha256(script: string): string {
  return `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`;
}

function figure(label: string, value: number | string): string {
  return `<div class="figure"><b>${escapeHtml(String(value))}</b>${escapeHtml(label)}</div>`;
}

function rulesTable(data: ReportData): string {
  if (data.rules.length === 0) return '<p>Nothing was blocked.</p>';
  const rows = data.rules.map(
    (rule) =>
      `<tr><td><code>${escapeHtml(rule.rule)}</code></td><td>${escapeHtml(rule.meaning ?? '')}</td><td>${rule.blocks}</td><td>${rule.disputed}</td></tr>`,
  );
  return `<table><thead><tr><th>rule</th><th>what it stops</th><th>blocks</th><th>disputed as wrong</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function constraintsTable(data: ReportData, timeZone: string | undefined): string {
  if (data.constraints.length === 0) return '<p>Nothing was learned.</p>';
  const rows = data.constraints.map((constraint) => {
    const calls = constraint.calls.map((call) => `<div class="mono">${escapeHtml(call)}</div>`).join('');
    const lifted =
      constraint.lifted === undefined
        ? ''
        : `<div class="muted">lifted: ${escapeHtml(constraint.lifted)}</div>`;
    return (
      `<tr><td>${escapeHtml(dateTime(constraint.at, timeZone))}</td>` +
      `<td>${escapeHtml(constraint.effect)}<div class="muted mono">${escapeHtml(constraint.scope)} · ${escapeHtml(constraint.signature)} · ${escapeHtml(constraint.id.slice(0, 10))}</div>${lifted}</td>` +
      `<td>failed ${constraint.failures}×${calls}<div class="mono">${escapeHtml(constraint.lastError)}</div></td></tr>`
    );
  });
  return `<table><thead><tr><th>learned</th><th>what it blocks</th><th>evidence</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function disputesTable(data: ReportData, timeZone: string | undefined): string {
  if (data.disputes.length === 0)
    return '<p>No verdict was disputed (narrowing-guard feedback … --wrong "why").</p>';
  const rows = data.disputes.map(
    (dispute) =>
      `<tr><td>${escapeHtml(dateTime(dispute.at, timeZone))}</td><td>${escapeHtml(dispute.tool)}</td><td><code>${escapeHtml(dispute.rule ?? '')}</code></td><td>${escapeHtml(dispute.why)}</td></tr>`,
  );
  return `<table><thead><tr><th>when</th><th>tool</th><th>rule</th><th>why it was wrong</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
