/**
 * The context a project's agents share by default: the repository (its `origin` remote, without
 * credentials, or else the folder of its checkout) and the host. Read from `.git` directly, without
 * running git, so opening a guard stays fast.
 */
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { findProjectRoot } from './state-dir.js';

export interface ProjectContext {
  readonly repository?: string;
  readonly host: string;
}

export function detectProjectContext(workspaceRoot: string): ProjectContext {
  const root = findProjectRoot(workspaceRoot);
  const repository = originOf(root) ?? (isCheckout(root) ? root : undefined);
  return { ...(repository !== undefined && { repository }), host: hostname() };
}

/** `git@github.com:acme/api.git`, `https://user:token@github.com/acme/api` → `github.com/acme/api`. */
export function normaliseRemote(url: string): string {
  const trimmed = url
    .trim()
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(trimmed);
  if (scp) return `${scp[1]}/${scp[2]}`;
  try {
    const parsed = new URL(trimmed);
    if (parsed.protocol === 'file:') return parsed.pathname;
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return trimmed;
  }
}

function isCheckout(root: string): boolean {
  try {
    statSync(join(root, '.git'));
    return true;
  } catch {
    return false;
  }
}

function originOf(root: string): string | undefined {
  const config = readText(join(gitCommonDir(root) ?? join(root, '.git'), 'config'));
  if (config === undefined) return undefined;
  const section = /\[remote "origin"\]([^[]*)/.exec(config)?.[1];
  const url = section && /^\s*url\s*=\s*(.+)$/m.exec(section)?.[1];
  return url ? normaliseRemote(url) : undefined;
}

/** A worktree's `.git` is a file naming its git dir, whose `commondir` holds the shared config. */
function gitCommonDir(root: string): string | undefined {
  const pointer = readText(join(root, '.git'));
  const gitDir = pointer && /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
  if (!gitDir) return undefined;
  const absolute = isAbsolute(gitDir) ? gitDir : resolve(root, gitDir);
  const common = readText(join(absolute, 'commondir'))?.trim();
  return common ? resolve(absolute, common) : dirname(join(absolute, 'config'));
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
