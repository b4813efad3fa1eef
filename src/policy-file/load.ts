import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { deepMerge, type Policy, type PolicyInput, type PresetName, resolvePolicy } from '../core/policy.js';
import { describeIssues, describeValue, formatPath, PolicyError } from './errors.js';
import { jsonErrorPosition } from './json-position.js';
import { type PolicyFileInput, policyInputSchema } from './schema.js';

export interface LoadOptions {
  /** Replaces the file's `preset` (a command-line `--preset` wins over the file). */
  readonly preset?: PresetName;
}

/** Validates a policy object (from a file, an API call, the environment) and fills in its preset. */
export function parsePolicy(input: unknown, source?: string, options: LoadOptions = {}): Policy {
  const document = input ?? {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    const got = describeValue(document);
    throw new PolicyError([`the policy must be a mapping of fields such as "preset" (got ${got})`], source);
  }
  // A policy of no fields (the default) is valid as it is: no need to build the schema for it.
  const fields = Object.keys(document).length === 0 ? {} : validFields(document, source);
  const policyInput: PolicyInput = options.preset ? { ...fields, preset: options.preset } : fields;
  const policy = resolvePolicy(policyInput);
  const problems = crossFieldProblems(policy);
  if (problems.length > 0) throw new PolicyError(problems, source);
  return policy;
}

/** The policy's fields, checked against the schema (`$schema` aside). */
function validFields(document: object, source: string | undefined): Omit<PolicyFileInput, '$schema'> {
  const schema = policyInputSchema();
  const parsed = schema.safeParse(document);
  if (!parsed.success) throw new PolicyError(describeIssues(parsed.error.issues, document, schema), source);
  const { $schema: _schema, ...fields } = parsed.data;
  return fields;
}

/** Rules between fields, checked on the resolved policy so that preset defaults take part. */
function crossFieldProblems(policy: Policy): string[] {
  const problems: string[] = [];
  const check = (detectors: Policy['detectors'], prefix: string) => {
    const { cycle, toolHealth } = detectors;
    for (const name of ['identicalResult', 'errorStreak', 'poll', 'editStreak'] as const) {
      const { warnAt, blockAt } = detectors[name];
      if (warnAt > blockAt) {
        problems.push(
          `${prefix}${name}.warnAt (${warnAt}) must not be greater than ${prefix}${name}.blockAt (${blockAt}): ` +
            'a call would be blocked before any warning',
        );
      }
    }
    if (cycle.minPeriod > cycle.maxPeriod) {
      problems.push(
        `${prefix}cycle.minPeriod (${cycle.minPeriod}) must not be greater than ` +
          `${prefix}cycle.maxPeriod (${cycle.maxPeriod})`,
      );
    }
    if (toolHealth.cooldownSeconds > toolHealth.maxCooldownSeconds) {
      problems.push(
        `${prefix}toolHealth.cooldownSeconds (${toolHealth.cooldownSeconds}) must not be greater than ` +
          `${prefix}toolHealth.maxCooldownSeconds (${toolHealth.maxCooldownSeconds})`,
      );
    }
  };
  check(policy.detectors, 'detectors.');
  for (const [name, tool] of Object.entries(policy.tools)) {
    if (!tool.detectors) continue;
    check(deepMerge(policy.detectors, tool.detectors), `${formatPath(['tools', name, 'detectors'])}.`);
  }
  return problems;
}

/** Reads a policy from a JSON or YAML file: by extension, otherwise JSON first, then YAML. */
export function loadPolicyFile(path: string, options: LoadOptions = {}): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'the file does not exist' : `cannot read the file (${code ?? String(error)})`;
    throw new PolicyError([why], path);
  }
  return parsePolicy(parsePolicyText(text.replace(/^\uFEFF/, ''), path), path, options);
}

function parsePolicyText(text: string, path: string): unknown {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return parseJson(text, path);
  if (extension === '.yaml' || extension === '.yml') return parseYaml(text, path);
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text, path);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.replace(/ in JSON at position \d+.*$/s, '').split('\n')[0];
    const at = jsonErrorPosition(text);
    throw new PolicyError([`not valid JSON: ${reason}`], at ? `${path}:${at.line}:${at.column}` : path);
  }
}

function parseYaml(text: string, path: string): unknown {
  const document = parseDocument(text);
  const [first] = document.errors;
  if (first) {
    const at = first.linePos?.[0];
    const reason = first.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
    throw new PolicyError([`not valid YAML: ${reason}`], at ? `${path}:${at.line}:${at.col}` : path);
  }
  try {
    // Aliases are resolved only here: an unknown or runaway alias fails at this point.
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new PolicyError([`not valid YAML: ${(error as Error).message}`], path);
  }
}

/** The policy file's JSON Schema, for editors (`$schema`) and for documentation. */
export function policyJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(policyInputSchema(), { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}
