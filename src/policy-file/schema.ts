/**
 * The policy file's schema. Every field is optional (the preset fills in the rest) and every
 * object is strict, so a misspelt key is an error instead of a silently ignored setting. Each
 * leaf's error message is the expectation itself ("a positive integer"); `errors.ts` turns it
 * into a full sentence with the field path and the offending value.
 */
import { z } from 'zod';
import type { Policy } from '../core/policy.js';
import { ACTION_KINDS } from '../core/types.js';

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `one of ${values.map((value) => JSON.stringify(value)).join(', ')}` });
}

const flag = () => z.boolean({ error: 'true or false' });
const positiveInteger = () => z.int({ error: 'a positive integer' }).min(1, { error: 'a positive integer' });
const countFrom = (minimum: number) =>
  z
    .int({ error: `an integer of at least ${minimum}` })
    .min(minimum, { error: `an integer of at least ${minimum}` });
const nonNegativeInteger = () => countFrom(0);
const positiveNumber = () =>
  z.number({ error: 'a positive number' }).positive({ error: 'a positive number' });
const nonNegativeNumber = () =>
  z.number({ error: 'a number of at least 0' }).min(0, { error: 'a number of at least 0' });
const fraction = () =>
  z
    .number({ error: 'a number from 0 to 1' })
    .min(0, { error: 'a number from 0 to 1' })
    .max(1, { error: 'a number from 0 to 1' });
const toolNames = () =>
  z.array(z.string({ error: 'a tool name' }).min(1, { error: 'a tool name' }), {
    error: 'a list of tool names',
  });

/** A strict object whose fields are all optional. */
function section<Shape extends Record<string, z.ZodType>>(shape: Shape, description?: string) {
  const partial = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, value.optional()]));
  const object = z.strictObject(partial as { [K in keyof Shape]: z.ZodOptional<Shape[K]> }, {
    error: 'a mapping of fields',
  });
  return description ? object.meta({ description }) : object;
}

/**
 * The schema, built on first use rather than when the module loads: a process that never reads a
 * policy (a hook event with the default policy, the library without a policy file) never builds it.
 */
export function policyInputSchema(): PolicySchema {
  built ??= buildSchema();
  return built;
}

type PolicySchema = ReturnType<typeof buildSchema>;
/** Built once per process, never changed. */
let built: PolicySchema | undefined;

function buildSchema() {
  const detectorsSchema = section(
    {
      identicalFailure: section(
        {
          enabled: flag(),
          threshold: positiveInteger(),
          deterministicThreshold: positiveInteger(),
          unknownThreshold: positiveInteger(),
        },
        'The same call failing the same way against unchanged state.',
      ),
      identicalResult: section(
        {
          enabled: flag(),
          warnAt: positiveInteger(),
          blockAt: positiveInteger(),
          withinCalls: positiveInteger(),
          revisitBlockAt: nonNegativeInteger(),
          rerunStreak: nonNegativeInteger(),
          repeatWindow: nonNegativeInteger(),
        },
        'The same call returning the same result again (polls excepted). Repeats count only when each ' +
          'comes within `withinCalls` proposals of the previous one; a read or search run again later, ' +
          'with nothing changed, is blocked at its `revisitBlockAt`th occurrence, and after `rerunStreak` ' +
          're-runs in a row of earlier queries that came back the same (one first ask of a new query may ' +
          'come between two), the next re-run is blocked. Once two calls of one tool came back as they had ' +
          'before, nothing done since, within `repeatWindow` calls, its next such call is blocked (0: off).',
      ),
      nonAdvancing: section(
        { enabled: flag(), blockAfter: positiveInteger(), emptyBlockAfter: positiveInteger() },
        'Consecutive results that carry nothing new, from one tool, whatever its inputs: `blockAfter` ' +
          'results the tool flagged, or `emptyBlockAfter` empty answers.',
      ),
      errorStreak: section(
        {
          enabled: flag(),
          warnAt: positiveInteger(),
          blockAt: positiveInteger(),
          effect: oneOf(['warn', 'block']),
        },
        'One tool failing with the same agent-blamed error while its arguments vary.',
      ),
      cycle: section(
        { enabled: flag(), minPeriod: countFrom(2), maxPeriod: countFrom(2), repetitions: countFrom(2) },
        'A short sequence of calls and results repeating itself.',
      ),
      poll: section(
        { enabled: flag(), warnAt: positiveInteger(), blockAt: positiveInteger() },
        'Status checks whose result never changes.',
      ),
      creationRate: section(
        { enabled: flag(), max: positiveInteger(), windowSeconds: positiveNumber() },
        'Creations of the same shape (branch, worktree, file) within a time window.',
      ),
      toolHealth: section(
        {
          enabled: flag(),
          openAfter: positiveInteger(),
          cooldownSeconds: positiveNumber(),
          maxCooldownSeconds: positiveNumber(),
        },
        'Circuit breaker on consecutive infrastructure faults of one tool.',
      ),
      absentText: section(
        { enabled: flag() },
        'An edit whose text is not in the file as it was last read in full, with nothing changed since.',
      ),
      duplicateEffect: section(
        { enabled: flag() },
        'A booking, message, payment or new record that already succeeded, asked for again with the same arguments.',
      ),
      stateCycle: section(
        { enabled: flag() },
        'A failed command run again after edits that only brought the files back to a state in which it already failed.',
      ),
      unseenCreation: section(
        { enabled: flag() },
        'A read, edit or delete of a file a tool reported creating, once a file that tool created was missing right after.',
      ),
      blindEdit: section(
        { enabled: flag() },
        'A search-and-replace edit of a file the agent has not read, after two such guesses at it were not found.',
      ),
      editStreak: section(
        {
          enabled: flag(),
          warnAt: positiveInteger(),
          blockAt: positiveInteger(),
          effect: oneOf(['warn', 'block']),
        },
        'Edits of one file failing one after another with one kind of error, the file neither read nor changed in between.',
      ),
      unavailableValue: section(
        { enabled: flag() },
        'A retry that still asks for something the tool said is not available, only adding list items to the call that failed.',
      ),
      respelledCommand: section(
        { enabled: flag() },
        'A command spelled another way (options reordered, a tuning variable such as PYTHONPATH set before it, run through a runner) after two such spellings failed in a row alike.',
      ),
      numberedCopy: section(
        { enabled: flag() },
        "An edit whose text carries a numbered view's line numbers, after such an edit of the same unchanged file was not found.",
      ),
      compactionCycle: section(
        { enabled: flag() },
        'The same unchanged files re-read after compaction after compaction, with nothing written or learned in between.',
      ),
      convergence: section(
        {
          enabled: flag(),
          direction: oneOf(['minimize', 'maximize']),
          plateauWindow: positiveInteger(),
          tolerance: nonNegativeNumber(),
          exhaustAfterBlocks: positiveInteger(),
        },
        'Progress of the run as a whole: plateau warns, exhaustion halts.',
      ),
    },
    'Loop detectors and their thresholds.',
  );

  const learningSchema = section(
    {
      enabled: flag(),
      targetScope: oneOf(['missing', 'all']),
      invalidation: oneOf(['workspace', 'target']).meta({
        description:
          "workspace: any file change relieves bans on commands and searches; target: only a change of the ban's own target.",
      }),
      strategyMinTargets: positiveInteger(),
      strategyEffect: oneOf(['warn', 'block', 'off']),
      radius: section({
        enabled: flag(),
        curve: z.array(positiveInteger(), { error: 'a list of positive integers' }).min(1, {
          error: 'a non-empty list of positive integers',
        }),
        shrinkAfter: positiveInteger(),
        relaxAfter: positiveInteger(),
      }),
      ttlSeconds: section({
        call: positiveNumber(),
        target: positiveNumber(),
        strategy: positiveNumber(),
        parameter: positiveNumber(),
      }),
      probationFactor: z
        .number({ error: 'a number of at least 1' })
        .min(1, { error: 'a number of at least 1' }),
      maxConstraints: positiveInteger(),
    },
    'How failures turn into learned constraints.',
  );

  const budgetSchema = section(
    {
      maxSteps: positiveInteger(),
      tokenBudget: positiveInteger(),
      costLimit: positiveNumber(),
      timeoutMs: positiveInteger(),
      reserveTokens: nonNegativeInteger(),
      reserveCostFraction: fraction(),
    },
    'Limits on steps, tokens, cost and wall time.',
  );

  const toolPolicySchema = section({
    exempt: flag().meta({ description: 'Exempt from every loop detector and from learned bans.' }),
    kind: oneOf(ACTION_KINDS).meta({ description: 'The action kind, when the tool name says nothing.' }),
    alternatives: toolNames(),
    detectors: detectorsSchema,
  });

  const dimensions = () => z.array(z.string().min(1), { error: 'a list of context names' });

  const sharingSchema = section(
    {
      call: dimensions(),
      target: dimensions(),
      strategy: dimensions(),
      parameter: dimensions(),
      absolutePaths: dimensions(),
    },
    'Which context dimensions each kind of constraint keeps; a dimension named nowhere applies to all.',
  );

  const toolName = z.string().min(1, { error: 'a non-empty tool name or glob' });

  return section({
    $schema: z.string({ error: 'a URL or path of the JSON Schema' }),
    preset: oneOf(['precise', 'strict', 'off']).meta({
      description: 'Starting point: precise (default), strict (more recall, some false blocks) or off.',
    }),
    enforcement: oneOf(['enforce', 'advisory']).meta({
      description: 'advisory turns every block into a warning.',
    }),
    learning: learningSchema,
    detectors: detectorsSchema,
    budget: budgetSchema,
    tools: z
      .record(toolName, toolPolicySchema, { error: 'a mapping from tool names or globs to settings' })
      .meta({
        description: 'Per-tool overrides, by exact name or glob (`mcp__github__*`); an exact name wins.',
      }),
    alternatives: z.record(toolName, toolNames(), {
      error: 'a mapping from tool names to lists of tool names',
    }),
    context: z.record(z.string(), z.string({ error: 'a string' }), {
      error: 'a mapping from names to strings',
    }),
    sharing: sharingSchema,
    store: z
      .string({ error: 'file, sqlite, memory or a redis:// URL' })
      .regex(/^(file|sqlite|memory|rediss?:\/\/.+)$/, { error: 'file, sqlite, memory or a redis:// URL' })
      .meta({
        description: 'Where learned state is kept: file (default), sqlite, memory or a redis:// URL.',
      }),
    otel: z.boolean({ error: 'true or false' }).meta({
      description:
        'Emit an OpenTelemetry span for each verdict through @opentelemetry/api (install it, and register an SDK).',
    }),
  });
}

export type PolicyFileInput = z.infer<PolicySchema>;

/**
 * Compile-time guard that the schema and the engine's `Policy` name the same fields, so a field
 * added to one cannot be forgotten in the other. A mismatch fails type checking with its name.
 */
type Uncovered<Shape, Other> = Shape extends readonly unknown[]
  ? never
  : Shape extends object
    ? {
        [K in keyof Shape]-?: K extends keyof NonNullable<Other>
          ? Uncovered<NonNullable<Shape[K]>, NonNullable<Other>[K]>
          : K;
      }[keyof Shape]
    : never;
type AllCovered<Missing> = [Missing] extends [never] ? true : { missing: Missing };
export const schemaCoversPolicy: AllCovered<Uncovered<Policy, PolicyFileInput>> = true;
export const policyCoversSchema: AllCovered<Uncovered<Omit<PolicyFileInput, '$schema'>, Policy>> = true;
