/**
 * What guards the agents of a state directory, read from what `install` and `wrap` recorded there (and,
 * for hooks installed for the user, in the home folder's): so that an empty state says what to do for
 * the face in use rather than for every face.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const AGENT_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI',
  codex: 'Codex',
  cursor: 'Cursor',
};

export interface GuardedFaces {
  /** Agents whose hooks run the guard, by display name. */
  readonly hookAgents: readonly string[];
  /** Whether an MCP server is wrapped for this state directory. */
  readonly wrappedServer: boolean;
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The hooks installed for the project (`<stateDir>/hooks/`) or the user, and whether a server is wrapped. */
export function guardedFaces(stateDir: string, userStateDir: string): GuardedFaces {
  const agents = new Set<string>();
  const records = [
    ...names(join(stateDir, 'hooks')).filter((name) => name.endsWith('-project.json')),
    ...names(join(userStateDir, 'hooks')).filter((name) => name.endsWith('-user.json')),
  ];
  for (const record of records) {
    const agent = AGENT_NAMES[record.replace(/-(?:project|user)\.json$/, '')];
    if (agent !== undefined) agents.add(agent);
  }
  const wrappedServer = names(join(stateDir, 'wrapped')).some((name) => name.endsWith('.json'));
  return { hookAgents: [...agents], wrappedServer };
}

function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The sentence an empty state directory is explained with, for the faces that guard it. */
export function emptyStateMessage(label: string, faces: GuardedFaces): string {
  const { hookAgents, wrappedServer } = faces;
  if (hookAgents.length > 0) {
    const sessions = hookAgents.length === 1 ? `a ${hookAgents[0]} session` : 'a session of one of them';
    return (
      `No learned constraints yet in ${label}: the hooks of ${listed(hookAgents)} run the guard here, so one ` +
      `is learned once a call fails in ${sessions} started in this project. There is nothing else to start.\n`
    );
  }
  if (wrappedServer) {
    return (
      `No learned constraints yet in ${label}: an MCP server is wrapped for this project, so one is learned ` +
      'once a call through it fails (restart the client after wrapping, so that it starts the server through the guard).\n'
    );
  }
  return (
    `No learned constraints yet in ${label}, and no agent is guarded for it. To guard an agent through its ` +
    'hooks: `narrowing-guard install claude-code` (or gemini-cli, codex, cursor); to guard an MCP server: ' +
    '`narrowing-guard wrap <server>`. Constraints are learned once a guarded call fails.\n'
  );
}
