/**
 * Where Claude Code keeps its transcripts, and reading them from disk: one folder per project under
 * `~/.claude/projects/` (or `$CLAUDE_CONFIG_DIR/projects/`) named after the project's folder, one
 * `<session>.jsonl` per session, and each subagent's own file in `<session>/subagents/agent-<id>.jsonl`
 * (older versions: `agent-<id>.jsonl` beside the sessions). Links are never followed: a transcript
 * folder is written by Claude Code alone, so a link in it is not one of its files.
 */
import { closeSync, constants, createReadStream, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { NarrowingError } from '../../core/errors.js';
import { boundedLines } from '../lines.js';
import { type ClaudeConversionResult, ClaudeTranscriptConverter, MAX_TRANSCRIPT_LINE } from './claude.js';

/** Claude Code's limit on a project folder's name; longer names end in a hash of the path. */
const MAX_PROJECT_NAME = 200;

export interface ClaudeHome {
  readonly HOME?: string;
  readonly CLAUDE_CONFIG_DIR?: string;
}

/** The folder holding one folder per project. */
export function claudeProjectsDir(env: ClaudeHome): string {
  const config = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
  return join(config, 'projects');
}

/**
 * The project folder's name as Claude Code derives it from the working directory: every character
 * other than an ASCII letter or digit becomes `-` (so `/home/me/my.app` is `-home-me-my-app`).
 * Past 200 characters Claude Code keeps the first 200 and adds a hash whose recipe has changed
 * between versions, so only that prefix is returned.
 */
export function claudeProjectDirName(cwd: string): { readonly name: string; readonly truncated: boolean } {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  return name.length <= MAX_PROJECT_NAME
    ? { name, truncated: false }
    : { name: name.slice(0, MAX_PROJECT_NAME), truncated: true };
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The transcript folder of the project at `cwd`; a `USAGE` error saying where it looked otherwise. */
export function findClaudeProjectDir(cwd: string, env: ClaudeHome): string {
  const projects = claudeProjectsDir(env);
  const { name, truncated } = claudeProjectDirName(cwd);
  if (!truncated) {
    const dir = join(projects, name);
    if (isRealDirectory(dir)) return dir;
  } else {
    let names: string[] = [];
    try {
      names = readdirSync(projects).filter((entry) => entry.startsWith(`${name}-`));
    } catch {}
    const [only] = names;
    if (names.length === 1 && only !== undefined && isRealDirectory(join(projects, only)))
      return join(projects, only);
    if (names.length > 1) {
      throw new NarrowingError(
        'USAGE',
        `several Claude Code projects in ${projects} start like ${cwd}: give the folder of the one you mean`,
      );
    }
  }
  throw new NarrowingError(
    'USAGE',
    `no Claude Code transcripts for ${cwd}: ${join(projects, truncated ? `${name}-…` : name)} does not exist. ` +
      'Give a transcript or a project folder instead.',
  );
}

export interface SessionFile {
  readonly path: string;
  readonly modifiedMs: number;
}

export interface SessionListing {
  /** Oldest first. */
  readonly sessions: readonly SessionFile[];
  /** Entries that are links, left alone. */
  readonly links: number;
}

/** A project folder's session transcripts (not the subagents' files). */
export function listClaudeSessions(dir: string): SessionListing {
  const sessions: SessionFile[] = [];
  let links = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.name.endsWith('.jsonl') || entry.name.startsWith('agent-')) continue;
    if (entry.isSymbolicLink()) {
      links++;
      continue;
    }
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    sessions.push({ path, modifiedMs: lstatSync(path).mtimeMs });
  }
  sessions.sort((a, b) => a.modifiedMs - b.modifiedMs || a.path.localeCompare(b.path));
  return { sessions, links };
}

export interface SubagentFile {
  readonly agent: string;
  readonly path: string;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** How much of a legacy subagent file is read to learn which session it belongs to. */
const HEAD_BYTES = 64 * 1024;

function sessionIdOfHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const firstLine = buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
    const match = /"sessionId"\s*:\s*"([^"]{1,200})"/.exec(firstLine);
    return match?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The files of the subagents a session called, in both layouts. */
export function subagentFilesOf(sessionPath: string): SubagentFile[] {
  const dir = dirname(sessionPath);
  const session = basename(sessionPath, '.jsonl');
  const files: SubagentFile[] = [];
  const nested = join(dir, session, 'subagents');
  if (isRealDirectory(join(dir, session)) && isRealDirectory(nested)) {
    for (const entry of readdirSync(nested, { withFileTypes: true })) {
      const match = AGENT_FILE.exec(entry.name);
      if (match?.[1] && entry.isFile()) files.push({ agent: match[1], path: join(nested, entry.name) });
    }
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const match = AGENT_FILE.exec(entry.name);
    if (!match?.[1] || !entry.isFile()) continue;
    const path = join(dir, entry.name);
    if (sessionIdOfHead(path) === session) files.push({ agent: match[1], path });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** The lines of a file, or of standard input for `-`, each bounded. */
export function transcriptLines(path: string, stdin: AsyncIterable<string | Uint8Array> = process.stdin) {
  if (path === '-') return boundedLines(stdin, MAX_TRANSCRIPT_LINE);
  // O_NOFOLLOW: the file itself may not be a link either.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  return boundedLines(createReadStream('', { fd, highWaterMark: 1 << 16 }), MAX_TRANSCRIPT_LINE);
}

export interface ClaudeSources {
  /** Session transcripts in the order they ran, `-` for standard input. */
  readonly sessions: readonly string[];
  /** Read each session's subagent files too (not for standard input). Default true. */
  readonly subagents?: boolean;
  readonly stdin?: AsyncIterable<string | Uint8Array>;
}

/** Converts sessions, and the subagents they called, into one trace. */
export async function convertClaudeSessions(
  sources: ClaudeSources,
  name: string,
): Promise<ClaudeConversionResult> {
  const converter = new ClaudeTranscriptConverter(name);
  for (const session of sources.sessions) {
    for await (const line of transcriptLines(session, sources.stdin)) {
      if (typeof line === 'string') converter.add(line);
      else converter.skipTooLong();
    }
    if (session === '-' || sources.subagents === false) continue;
    for (const { agent, path } of subagentFilesOf(session)) {
      for await (const line of transcriptLines(path)) {
        if (typeof line === 'string') converter.addSubagent(agent, line);
        else converter.skipTooLong();
      }
    }
  }
  return converter.finish();
}
