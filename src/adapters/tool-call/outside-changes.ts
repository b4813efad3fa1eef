/**
 * Commands that change something outside this machine: a push to a remote repository, a forge's
 * command that opens, edits, merges or closes something, a registry's publish, an image's push, a
 * cluster's, a cloud's or an infrastructure tool's apply or delete, a deploy, an HTTP request that
 * sends data or names a method that writes. Each command of a line is read as the shell reads it
 * (`shell-effects.ts`): past wrappers and assignments, quotes and lists taken apart by the parser.
 */

/** Each pattern is tested on a command's program and its arguments, joined by spaces. */
const OUTSIDE_CHANGES: readonly RegExp[] = [
  /^git\s+(?:-C\s+\S+\s+)?push\b/,
  /^(?:gh|glab)\s+(?:pr|mr|issue|release|repo|workflow|run|label|secret|variable|gist|ci)\s+(?:create|edit|close|reopen|merge|comment|review|ready|delete|upload|fork|rename|archive|unarchive|sync|enable|disable|run|rerun|cancel|set|transfer|lock|unlock|pin|unpin|develop|revert|retry|approve|note)\b/,
  /^(?:gh|glab)\s+api\b.*\s(?:-X\s*|--method[\s=]+)['"]?(?:POST|PUT|PATCH|DELETE)\b/i,
  /^(?:gh|glab)\s+api\b.*\s(?:-[fF]|--field|--raw-field|--input)(?:[\s=]|$)/,
  /^(?:npm|pnpm|yarn)\s+(?:publish|unpublish|deprecate)\b/,
  /^(?:npm|pnpm|yarn)\s+dist-tag\s+(?:add|rm)\b/,
  /^(?:docker|podman)\s+(?:image\s+)?push\b/,
  /^(?:docker|podman)\s+buildx\s+build\b.*\s--push\b/,
  /^kubectl\s+(?:apply|create|delete|patch|replace|scale|set|label|annotate|expose|run|edit|cordon|uncordon|drain|taint|rollout\s+(?:restart|undo|pause|resume))\b/,
  /^helm\s+(?:install|upgrade|uninstall|rollback|delete)\b/,
  /^(?:terraform|tofu|pulumi)\s+(?:apply|destroy|import|up)\b/,
  /^(?:fly|flyctl|vercel|netlify|firebase|wrangler|railway|heroku)\s+(?:deploy|publish)\b/,
  /^aws\s+\S+\s+(?:create|delete|put|update|modify|start|stop|terminate|run|invoke|attach|detach|associate|disassociate|register|deregister|tag|untag|publish|send|deploy)-/,
  /^aws\s+s3\s+(?:cp|mv|rm|sync|mb|rb)\b/,
  /^(?:gcloud|az)\s+(?:[a-z][\w-]*\s+){0,4}(?:create|delete|deploy|update|set|add|remove|start|stop|restart|apply|import)\b/,
  /^(?:curl|wget|https?|xh)\s.*\s(?:-X\s*|--request[\s=]+|--method[\s=]+)['"]?(?:POST|PUT|PATCH|DELETE)\b/i,
  /^(?:curl|wget)\s.*\s(?:-d|--data(?:-[a-z]+)?|-F|--form|--json|-T|--upload-file|--post-data|--post-file)(?:[\s=]|$)/,
  /^(?:https?|xh)\s+(?:POST|PUT|PATCH|DELETE)\s/i,
];
/** The programs of those commands: any other program is not looked at further. */
const OUTSIDE_CHANGE_PROGRAMS: ReadonlySet<string> = new Set([
  'git',
  'gh',
  'glab',
  'npm',
  'pnpm',
  'yarn',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'terraform',
  'tofu',
  'pulumi',
  'fly',
  'flyctl',
  'vercel',
  'netlify',
  'firebase',
  'wrangler',
  'railway',
  'heroku',
  'aws',
  'gcloud',
  'az',
  'curl',
  'wget',
  'http',
  'https',
  'xh',
]);

/**
 * Whether one command, its program and arguments as its shell passes them (`git push -u origin
 * fix/login`, `npm publish`, `curl -X POST …`), changes something outside this machine: what
 * outside services answer may differ after it, whichever tool asks them.
 */
export function changesOutside(program: string, args: readonly string[]): boolean {
  if (!OUTSIDE_CHANGE_PROGRAMS.has(program)) return false;
  const command = args.length === 0 ? program : `${program} ${args.join(' ')}`;
  return OUTSIDE_CHANGES.some((pattern) => pattern.test(command));
}
