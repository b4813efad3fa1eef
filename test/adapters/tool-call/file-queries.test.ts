import { describe, expect, it } from 'vitest';
import { queriedFiles } from '../../../src/adapters/tool-call/file-queries.js';

describe('files a command line asks a query of', () => {
  it('reads the file a jq query names after its filter', () => {
    expect(queriedFiles(`jq -r '.dependencies | keys[]' package.json`)).toEqual(['package.json']);
  });

  it('reads the file a cat feeds to jq through a pipe', () => {
    expect(
      queriedFiles(`cat "data/orders.json" | jq '.orders[] | select(.id == "A-1001")' | head -5`),
    ).toEqual(['data/orders.json']);
  });

  it('skips the values of options that take them', () => {
    expect(
      queriedFiles(`jq --arg id A-1001 --indent 2 '.orders[] | select(.id == $id)' orders.json`),
    ).toEqual(['orders.json']);
  });

  it('reads every word after a filter taken from a file as a file asked', () => {
    expect(queriedFiles('jq -f filters/active.jq users.json admins.json')).toEqual([
      'admins.json',
      'users.json',
    ]);
  });

  it("reads yq's subcommand before its query", () => {
    expect(queriedFiles(`yq e '.services.web.ports' docker-compose.yml`)).toEqual(['docker-compose.yml']);
  });

  it('finds no file for a query of no input or of what a download prints', () => {
    expect(queriedFiles(`jq -n '[1, 2] | add'`)).toBeUndefined();
    expect(
      queriedFiles('curl -s https://api.github.com/repos/nodejs/node | jq .stargazers_count'),
    ).toBeUndefined();
  });

  it('finds no question in a check that the file parses, which prints nothing when it does', () => {
    expect(queriedFiles('jq empty tsconfig.json')).toBeUndefined();
    expect(queriedFiles(`jq '.compilerOptions' tsconfig.json > /dev/null && echo valid`)).toBeUndefined();
    expect(queriedFiles(`jq '.compilerOptions' tsconfig.json 2>/dev/null`)).toEqual(['tsconfig.json']);
  });

  it('finds no file for a line that runs no query program', () => {
    expect(queriedFiles('cat package.json | grep version')).toBeUndefined();
    expect(queriedFiles('grep -rn "jq" scripts/')).toBeUndefined();
  });
});
