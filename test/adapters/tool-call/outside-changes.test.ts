/**
 * A command that changes something outside this machine (a push, a publish, a deploy, a request that
 * writes) may change what any outside service answers, whichever tool asks it: the adapter says so
 * with `changesOutside`, and bans on calls to services are relieved by it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { lineEffectsOf } from '../../../src/adapters/tool-call/windows-shell.js';
import { adapter } from './helpers.js';

/** Whether a command of the line changes something outside this machine, as the adapter reads the line. */
const changesOutsideMachine = (line: string): boolean => lineEffectsOf(line).changesOutside;

describe('commands that change something outside the machine', () => {
  it('reads pushes, publishes, deploys, forge and cluster changes and writing requests as changing outside', () => {
    for (const line of [
      'git push -u origin fix/attribute-error',
      'git -C web push --force-with-lease',
      'git add -A && git commit -m "Fix totals" && git push',
      'gh pr create --title "Fix totals" --body "" --base main',
      'gh pr merge 42 --squash',
      'gh issue comment 17 --body "Fixed in #42"',
      'gh api -X PATCH repos/acme/billing/pulls/42 -f state=closed',
      'gh api repos/acme/billing/issues -f title="Flaky test"',
      'glab mr create --fill',
      'npm run build && npm publish --access public',
      'GITHUB_TOKEN=x pnpm publish',
      'docker push ghcr.io/acme/api:1.4.0',
      'docker buildx build --platform linux/amd64 -t ghcr.io/acme/api:1.4.0 --push .',
      'kubectl apply -f k8s/deployment.yaml',
      'kubectl rollout restart deployment/api',
      'helm upgrade --install api ./chart',
      'terraform apply -auto-approve',
      'flyctl deploy --remote-only',
      'vercel deploy --prod',
      'aws s3 sync dist/ s3://acme-site',
      'aws lambda update-function-code --function-name api --zip-file fileb://api.zip',
      'gcloud run deploy api --image gcr.io/acme/api',
      'az webapp create --name acme-api --plan free',
      'curl -X POST https://api.acme.dev/v1/jobs -d \'{"name":"reindex"}\'',
      'curl -s https://hooks.slack.com/services/T0/B0/x --data \'{"text":"deployed"}\'',
      'http POST https://api.acme.dev/v1/jobs name=reindex',
      'sudo kubectl delete pod api-7f9c8d',
      'timeout 120 git push origin main',
      'nohup npm publish > publish.log 2>&1',
      'cd web && (npm run build && vercel deploy --prod)',
    ]) {
      expect(changesOutsideMachine(line), line).toBe(true);
    }
  });

  it('does not read commands that only look, or change only this machine, as changing outside', () => {
    for (const line of [
      'git status --short',
      'git fetch origin',
      'git pull --rebase',
      'git log --oneline -5',
      'gh pr view 42 --json state',
      'gh pr list --head fix/attribute-error',
      'gh run watch 15926149076',
      'gh api repos/acme/billing/pulls/42',
      'npm view @acme/lib versions',
      'npm install',
      'docker build -t api .',
      'docker ps',
      'kubectl get pods -n prod',
      'kubectl rollout status deployment/api',
      'helm list',
      'terraform plan',
      'aws s3 ls s3://acme-site',
      'aws ec2 describe-instances',
      'gcloud run services describe api',
      'curl -s https://staging.acme.dev/healthz',
      'curl -sSL https://acme.dev/install.sh -o install.sh',
      'echo "git push" > notes.md',
      'pushd src',
      'git commit -m "Round totals; git push comes later"',
      "echo 'curl -X POST https://api.acme.dev/v1/jobs'",
    ]) {
      expect(changesOutsideMachine(line), line).toBe(false);
    }
  });

  it('reads any line a model may send without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), (line) => {
        expect(typeof changesOutsideMachine(line)).toBe('boolean');
        expect(typeof changesOutsideMachine(`gh api ${line}`)).toBe('boolean');
        expect(typeof changesOutsideMachine(`curl ${line}`)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('says so in the facts of a shell call', () => {
    const facts = (command: string) => adapter.describeCall(toolCallToProposal('Bash', { command }));
    expect(facts('git push -u origin main').changesOutside).toBe(true);
    expect(facts('git status').changesOutside).toBeUndefined();
  });
});
