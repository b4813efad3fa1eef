/**
 * The usage line and help of `narrowing-guard hook`, shared by the hook's own entry and the command
 * line's `narrowing-guard help hook`, so both say the same.
 */
import { HOST_AGENTS } from '../adapters/tool-call/host-tools.js';

export const HOOK_USAGE = `Usage: narrowing-guard hook <agent> [options]   (agents: ${HOST_AGENTS.join(', ')})`;

export const HOOK_HELP = `${HOOK_USAGE}

Run by a coding agent before and after each of its tool calls, with the event as JSON on stdin.
Answers on stdout in that agent's own protocol: a call that would fail again, or repeat again, is
denied with the reason the model reads. Install it with \`narrowing-guard install <agent>\`.

Options:
  --policy FILE      policy file (JSON or YAML)
  --preset NAME      precise (default), strict or advisory
  --state-dir DIR    state directory (default: .narrowing at the root of the payload's project)
  --store STORE      file (default), sqlite, or a redis:// URL
  --fail-closed      refuse a call the guard could not check (default: let it run)
  --deadline-ms N    a check before a call is answered, and its process ends, within N ms (default
                     5000); an outcome after a call is saved before the process ends (up to 50 s)
  --no-daemon        handle the event in this process instead of asking the helper
  --otel             emit OpenTelemetry spans for each verdict from this process (implies --no-daemon;
                     needs @opentelemetry/api and an SDK registered, see docs/visibility.md)
  --idle-ms N        how long the helper waits for events before it exits (default 600000)
  -h, --help         this text

The helper: the first event of a project starts a helper process (\`hook serve\`) that keeps the
guard open; each later hook process only relays its event to it over a local socket and prints the
answer. It exits after --idle-ms without events. Without it (--no-daemon, Windows) each hook
process opens the state itself, which is slower on a large state.

Exit codes:
  0  the answer is on stdout (a denial too, in the agent's JSON fields), or the guard could not
     check the call and lets it run (the reason is on stderr)
  1  the hook's command line is wrong (an unknown agent or option): the call runs, the reason is
     on stderr
  2  the call is refused without a JSON answer: only with --fail-closed, when the guard could not
     check it (a bad command line, an unreadable payload, no session id)

Examples:
  $ echo '{"session_id":"s1","cwd":".","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.ts"}}' \\
      | narrowing-guard hook claude-code
  $ narrowing-guard hook codex --store sqlite --deadline-ms 2000
  $ narrowing-guard hook cursor --no-daemon --fail-closed`;
