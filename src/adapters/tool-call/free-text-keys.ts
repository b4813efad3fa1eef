/**
 * Words the model writes beside a call, which it rewrites on every retry: a host's shell and editor
 * tools take them (`description`, `explanation`, `justification`) and declare them, but a tool that
 * declares nothing may take them too.
 */
export const FREE_TEXT_KEYS = ['description', 'explanation', 'justification'] as const;

/**
 * Whether `key` names free text that hosts put beside a call to say what it is for (Claude Code's
 * `description`, Cursor's `explanation`): never what the call hands a program to work on.
 */
export function isFreeTextKey(key: string): boolean {
  return (FREE_TEXT_KEYS as readonly string[]).includes(key);
}
