import { type Command, Option } from 'commander';
import type { PresetName } from '../../core/policy.js';
import { type CommandIO, processIO } from './io.js';

const HELP = `
A policy is one YAML or JSON file: a preset plus the fields you change (see examples/policy.yaml).

Examples:
  $ narrowing-guard policy show                      # the effective defaults (preset precise)
  $ narrowing-guard policy show --preset strict --json
  $ narrowing-guard policy show --policy narrowing.yaml
  $ narrowing-guard policy check narrowing.yaml      # exit 1 with every problem named
  $ narrowing-guard policy schema > narrowing.schema.json`;

interface ShowOptions {
  readonly policy?: string;
  readonly preset?: PresetName;
  readonly json?: boolean;
}

export function register(program: Command): void {
  const policy = program
    .command('policy')
    .description('show, check or describe the policy that decides every verdict')
    .addHelpText('after', HELP);
  policy
    .command('show')
    .description('print the effective policy: a preset with your overrides applied')
    .option('--policy <file>', 'policy file, YAML or JSON')
    .addOption(new Option('--preset <name>', 'preset to start from').choices(['precise', 'strict', 'off']))
    .option('--json', 'JSON instead of YAML')
    .action(async (options: ShowOptions) => {
      process.exitCode = await showPolicy(options, processIO());
    });
  policy
    .command('check')
    .description('validate a policy file; every invalid field is named with the values it allows')
    .argument('<file>', 'policy file, YAML or JSON')
    .action(async (file: string) => {
      process.exitCode = await checkPolicy(file, processIO());
    });
  policy
    .command('schema')
    .description('print the JSON Schema of policy files, for editors')
    .action(async () => {
      const { policyJsonSchema } = await import('../../policy-file/index.js');
      process.stdout.write(`${JSON.stringify(policyJsonSchema(), null, 2)}\n`);
    });
}

export async function showPolicy(options: ShowOptions, io: CommandIO): Promise<number> {
  const { loadPolicyFile, parsePolicy, PolicyError } = await import('../../policy-file/index.js');
  try {
    const preset = options.preset ? { preset: options.preset } : {};
    const resolved = options.policy ? loadPolicyFile(options.policy, preset) : parsePolicy(preset);
    if (options.json) {
      io.stdout.write(`${JSON.stringify(resolved, null, 2)}\n`);
    } else {
      const { stringify } = await import('yaml');
      io.stdout.write(stringify(resolved));
    }
    return 0;
  } catch (error) {
    if (error instanceof PolicyError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

export async function checkPolicy(file: string, io: CommandIO): Promise<number> {
  const { loadPolicyFile, PolicyError } = await import('../../policy-file/index.js');
  try {
    const resolved = loadPolicyFile(file);
    io.stdout.write(`${file}: valid (preset ${resolved.preset}, enforcement ${resolved.enforcement})\n`);
    return 0;
  } catch (error) {
    if (error instanceof PolicyError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
