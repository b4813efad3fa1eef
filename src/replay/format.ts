import type { RecordedVerdict } from '../core/types.js';
import type { Judgement } from './judge.js';
import type { ReplayStep, ReplaySummary } from './replay.js';

/**
 * One `--json` line per call: `rule` and `reason` only when the verdict is not `allow`; `returned`,
 * what the call returned in the recording, when it was recorded. Written field by field, each value
 * by `JSON.stringify`, so the line is the one `JSON.stringify` gives for the object with those fields
 * in that order, without building the object first: a replay writes one line per call.
 */
export function stepJson(step: ReplayStep): string {
  const { step: number, tool, verdict, rule, reason, returned, agent } = step;
  let line = `{"step":${JSON.stringify(number)},"tool":${quotedName(tool)}`;
  if (agent !== undefined) line += `,"agent":${JSON.stringify(agent)}`;
  line += `,"verdict":${JSON.stringify(verdict)}`;
  if (verdict !== 'allow' && rule !== undefined) line += `,"rule":${quotedName(rule)}`;
  if (verdict !== 'allow' && reason !== undefined) line += `,"reason":${JSON.stringify(reason)}`;
  if (returned !== undefined) line += `,"returned":${JSON.stringify(returned)}`;
  return `${line}}`;
}

/** Names quoted so far: a trace names a handful of tools and rules, each written on thousands of lines. */
const QUOTED = new Map<string, string>();
/** Names remembered at most, and their longest: a trace of made-up or huge names keeps no more than this. */
const QUOTED_NAMES = 1024;
const QUOTED_NAME_LENGTH = 256;

/** `JSON.stringify(name)`, remembered for the next line that names it. */
function quotedName(name: string): string {
  let quoted = QUOTED.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (QUOTED.size < QUOTED_NAMES && name.length <= QUOTED_NAME_LENGTH) QUOTED.set(name, quoted);
  }
  return quoted;
}

export function judgementJson(judgement: Judgement): string {
  const { blocks, justified, falseSteps, disputed, disputedSteps } = judgement;
  return JSON.stringify({
    judge: {
      blocks,
      justified,
      false: judgement.false,
      falseSteps,
      ...(disputed !== undefined && { disputed, disputedSteps }),
    },
  });
}

/** `judge: 5 blocks, 4 justified …, 1 false (step 12)`. */
export function judgementLine(judgement: Judgement): string {
  const { blocks, justified, falseSteps } = judgement;
  const where =
    falseSteps.length === 0 ? '' : ` (step${falseSteps.length === 1 ? '' : 's'} ${falseSteps.join(', ')})`;
  const disputed =
    judgement.disputed === undefined
      ? ''
      : `; ${judgement.disputed} of them disputed in the journal` +
        (judgement.disputed === 0
          ? ''
          : ` (step${judgement.disputed === 1 ? '' : 's'} ${judgement.disputedSteps?.join(', ')})`);
  return (
    `judge: ${blocks} ${blocks === 1 ? 'block' : 'blocks'}, ${justified} justified (the call would have ` +
    `repeated a failure or a result with nothing changed), ${judgement.false} false (it would have done new work` +
    `${judgement.disputed === undefined ? '' : ', or a person said blocking it was wrong'})${where}${disputed}`
  );
}

/** The counts in the documented order; `coalesced` last, and only when some calls were. */
export function summaryJson(summary: ReplaySummary): string {
  const { calls, allow, warn, block, halt, coalesced } = summary;
  const counts = { calls, allow, warn, block, halt, ...(coalesced ? { coalesced } : {}) };
  return JSON.stringify({ summary: counts });
}

export interface TableStyle {
  /** Colours a verdict (identity when colour is off). */
  readonly verdict: (verdict: RecordedVerdict, text: string) => string;
  readonly dim: (text: string) => string;
  /** Terminal width; reasons are cut to fit. Unlimited when absent (output to a file or a pipe). */
  readonly width?: number;
}

/** Room for what a call returned: enough to recognise it, little enough to leave room for the reason. */
const RETURNED_WIDTH = 32;
/** What a narrow terminal leaves the reason at least, by narrowing the tool and returned columns. */
const MIN_REASON_WIDTH = 24;
const MIN_RETURNED_WIDTH = 8;
const MIN_TOOL_WIDTH = 12;

export const PLAIN_STYLE: TableStyle = { verdict: (_verdict, text) => text, dim: (text) => text };

function truncate(text: string, room: number): string {
  if (room <= 0) return '';
  if (text.length <= room) return text;
  return room === 1 ? '…' : `${text.slice(0, room - 1)}…`;
}

/** The steps as an aligned table: STEP TOOL RETURNED VERDICT RULE REASON. */
export function stepTable(steps: readonly ReplayStep[], style: TableStyle = PLAIN_STYLE): string[] {
  const header = {
    step: 'STEP',
    tool: 'TOOL',
    returned: 'RETURNED',
    verdict: 'VERDICT',
    rule: 'RULE',
    reason: 'REASON',
  };
  const rows = steps.map((step) => ({
    step: String(step.step),
    // A subagent's call shows whose it is: `a4f19c2/Read`.
    tool: (step.agent !== undefined ? `${step.agent}/${step.tool}` : step.tool).replace(/\s+/g, ' '),
    returned: step.returned ?? '',
    verdict: step.verdict,
    rule: step.rule ?? '',
    reason: (step.reason ?? '').replace(/\s+/g, ' ').trim(),
  }));
  // A loop, not Math.max(...rows): 110,000 arguments overflow the stack.
  const width = (key: 'step' | 'tool' | 'returned' | 'verdict' | 'rule') => {
    let widest = header[key].length;
    for (const row of rows) if (row[key].length > widest) widest = row[key].length;
    return widest;
  };
  // Steps replayed without their recorded results have nothing to show in that column.
  const showReturned = rows.some((row) => row.returned !== '');
  const widths = {
    step: width('step'),
    tool: Math.min(width('tool'), 40),
    returned: showReturned ? Math.min(width('returned'), RETURNED_WIDTH) : -2,
    verdict: width('verdict'),
    rule: width('rule'),
  };
  // On a narrow terminal the tool and returned columns give up room first, so the reason keeps some.
  if (style.width !== undefined) {
    let over = widths.step + widths.tool + widths.returned + widths.verdict + widths.rule + 10;
    over += MIN_REASON_WIDTH - style.width;
    if (over > 0 && showReturned) {
      const taken = Math.min(over, Math.max(0, widths.returned - MIN_RETURNED_WIDTH));
      widths.returned -= taken;
      over -= taken;
    }
    if (over > 0) widths.tool -= Math.min(over, Math.max(0, widths.tool - MIN_TOOL_WIDTH));
  }
  const lead = widths.step + widths.tool + widths.returned + widths.verdict + widths.rule + 10;
  const line = (row: typeof header, colour: (text: string) => string) => {
    const reasonRoom = style.width === undefined ? Number.POSITIVE_INFINITY : style.width - lead;
    const cells = [
      row.step.padStart(widths.step),
      truncate(row.tool, widths.tool).padEnd(widths.tool),
      ...(showReturned ? [truncate(row.returned, widths.returned).padEnd(widths.returned)] : []),
      colour(row.verdict.padEnd(widths.verdict)),
      row.rule.padEnd(widths.rule),
      truncate(row.reason, reasonRoom),
    ];
    return cells.join('  ').trimEnd();
  };
  return [
    style.dim(line(header, (text) => text)),
    ...rows.map((row) => line(row, (text) => style.verdict(row.verdict as RecordedVerdict, text))),
  ];
}

export function summaryLine(summary: ReplaySummary, style: TableStyle = PLAIN_STYLE): string {
  const parts = (['allow', 'warn', 'block', 'halt'] as const).map((verdict) =>
    summary[verdict] > 0 ? style.verdict(verdict, `${summary[verdict]} ${verdict}`) : `0 ${verdict}`,
  );
  // Calls answered from an identical call issued with them are counted apart: none of them is a block.
  if (summary.coalesced) parts.push(style.verdict('coalesced', `${summary.coalesced} coalesced`));
  const calls = `${summary.calls} ${summary.calls === 1 ? 'call' : 'calls'}`;
  return `${calls}: ${parts.join(', ')}`;
}
