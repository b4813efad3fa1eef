/**
 * What the demonstration's agent does: a deterministic script, no model. It makes the mistakes
 * agents make — retrying a missing file, editing with text that is not there, re-reading in a
 * loop — and the legitimate moves that must never be stopped.
 */
export interface DemoStep {
  readonly tool: string;
  /** Paths are relative to the project; the runner makes them absolute. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What the agent is doing, in a few words. */
  readonly intent: string;
}

const read = (path: string, intent: string): DemoStep => ({ tool: 'read_text_file', args: { path }, intent });
const edit = (path: string, oldText: string, newText: string, intent: string): DemoStep => ({
  tool: 'edit_file',
  args: { path, edits: [{ oldText, newText }] },
  intent,
});

export const FIRST_SESSION: readonly DemoStep[] = [
  { tool: 'list_directory', args: { path: '.' }, intent: 'look around' },
  read('config/prod.yaml', 'read the production config'),
  read('config/prod.yaml', 'retry it (it will fail the same way)'),
  read('config/default.yaml', 'read the default config instead'),
  read('src/price.js', 'read the code to fix'),
  edit(
    'src/price.js',
    '  return total * 1.19;',
    '  return total * (1 + vat);',
    'edit with text that is not in the file',
  ),
  edit(
    'src/price.js',
    '  return total * 1.2;',
    '  return total * (1 + vat);',
    'edit with the text that is there',
  ),
  read('src/price.js', 'read the file again after editing it'),
  read('.env.production', 'look for production secrets'),
  {
    tool: 'write_file',
    args: { path: 'config/prod.yaml', content: 'currency: EUR\nvat: 0.2\n' },
    intent: 'create the missing config',
  },
  read('config/prod.yaml', 'read the config it just created'),
  read('src/price.js', 're-read, unchanged'),
  read('src/price.js', 're-read, unchanged'),
  read('src/price.js', 're-read, unchanged'),
  read('src/price.js', 're-read, unchanged'),
  read('src/price.js', 're-read, unchanged: a loop'),
];

export const SECOND_SESSION: readonly DemoStep[] = [
  read('.env.production', 'a fresh session looks for the same missing file'),
  read('src/price.js', 'read the code'),
];
