/**
 * The words kept of a failure leave out the banners a package manager prints before it runs a
 * script: they echo what runs, and whether they are printed depends on how the script was asked for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/index.js';
import { withoutScriptBanners } from '../../../src/adapters/tool-call/script-banners.js';
import { NarrowingLoop } from '../../../src/index.js';

const TS_ERROR = [
  "src/api/client.ts:42:7 - error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
  "  Type 'undefined' is not assignable to type 'string'.",
  '',
  '42       baseUrl: import.meta.env.VITE_API_URL,',
  '         ~~~~~~~',
  '',
  'Found 1 error in src/api/client.ts:42',
  '',
].join('\n');

/** `npm run build` with npm 7 and later: the banner, a blank line, then the compiler's output. */
const NPM_BUILD = `\n> web@0.4.0 build\n> tsc -p tsconfig.json && vite build\n\n${TS_ERROR}`;
/** `npm run build --silent`: the compiler's output alone. */
const NPM_SILENT_BUILD = `\n${TS_ERROR}`;

describe('withoutScriptBanners', () => {
  it("leaves out npm's banner, the script's command under it and the blank lines around them", () => {
    expect(withoutScriptBanners(NPM_BUILD)).toBe(TS_ERROR);
  });

  it("leaves out pnpm's and npm 6's banner, which name the package's folder after the script", () => {
    const pnpm = `> @acme/web@1.2.0-beta.3 typecheck /home/dev/acme/packages/web\n> tsc --noEmit\n\n${TS_ERROR}`;
    expect(withoutScriptBanners(pnpm)).toBe(TS_ERROR);
  });

  it('leaves out every banner of scripts run one after another (a pre-script, then the script)', () => {
    const chained = `\n> web@0.4.0 prebuild\n> rimraf dist\n\n\n> web@0.4.0 build\n> tsc -p tsconfig.json\n\n${TS_ERROR}`;
    expect(withoutScriptBanners(chained).trim()).toBe(TS_ERROR.trim());
  });

  it("leaves out yarn 1's version line and the command under it", () => {
    const yarn = `yarn run v1.22.19\n$ tsc -p tsconfig.json\n${TS_ERROR}error Command failed with exit code 2.`;
    expect(withoutScriptBanners(yarn)).toBe(`${TS_ERROR}error Command failed with exit code 2.`);
  });

  it('keeps a line that quotes with `>` what is no package (a diff, a prompt, a quoted note)', () => {
    const quoted =
      '> Note: this build uses the legacy resolver\n> node index.js\nError: Cannot find module "x"';
    expect(withoutScriptBanners(quoted)).toBe(quoted);
  });

  it('keeps a text that is nothing but a banner', () => {
    const bannerOnly = '\n> web@0.4.0 build\n> tsc -p tsconfig.json\n\n';
    expect(withoutScriptBanners(bannerOnly)).toBe(bannerOnly);
  });

  it('never adds to a text, and leaving banners out of its result again changes nothing', () => {
    const line = fc.oneof(
      fc.constantFrom('> web@0.4.0 build', '> tsc', 'yarn run v1.22.19', '$ jest', '', 'error TS2322', '> x'),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join('\n');
        const once = withoutScriptBanners(text);
        expect(once.length).toBeLessThanOrEqual(text.length);
        expect(withoutScriptBanners(once)).toBe(once);
      }),
    );
  });
});

describe('a build failing alike with and without the banner', () => {
  it('is one failure told three times: the third asks for nothing new and the next run is blocked', () => {
    const loop = new NarrowingLoop({});
    const runs = [
      'npm run build',
      'npm run build --silent',
      'npm run build -- --pretty false',
      'CI=true npm run build',
    ];
    const outputs = [
      NPM_BUILD,
      NPM_SILENT_BUILD,
      NPM_BUILD.replace('vite build', 'vite build --pretty false'),
    ];
    const verdicts: string[] = [];
    runs.forEach((command, index) => {
      const call = ['run_in_terminal', { command, isBackground: false }] as const;
      verdicts.push(loop.checkProposal(toolCallToProposal(...call, { step: index + 1 })).verdict);
      const output = outputs[index];
      if (output !== undefined)
        loop.recordOutcome(
          toolCallToOutcome(...call, { content: [{ type: 'text', text: output }], isError: true }),
        );
    });
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'block']);
  });
});
