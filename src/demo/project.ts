/** The small project the demonstration's agent works on: real files in a temporary folder. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEMO_FILES: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "pricing", "type": "module", "scripts": { "test": "node --test" } }\n',
  'src/price.js': [
    'export function totalPrice(items) {',
    '  let total = 0;',
    '  for (const item of items) total += item.price;',
    '  return total * 1.2;',
    '}',
    '',
  ].join('\n'),
  'config/default.yaml': 'currency: EUR\nvat: 0.2\n',
};

export function createDemoProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'narrowing-demo-'));
  const project = join(root, 'pricing');
  for (const [path, content] of Object.entries(DEMO_FILES)) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  return project;
}
