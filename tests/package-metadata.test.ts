// Why: what npm shows and what a consumer's tools read comes from package.json and the files
// shipped beside it; a missing LICENSE or repository link is only noticed after a release. This
// checks the metadata of every publishable package, the release machinery (changesets, the
// publish workflow with provenance), and that CI runs the README's test command.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages } from '../scripts/pack.mjs';
import { REPO_ROOT, readJson } from './support/repo.js';

const REPOSITORY = 'https://github.com/repomem/repomem';
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
const packages = publishablePackages() as { name: string; folder: string }[];

describe('the root LICENSE', () => {
  it('is MIT, held by the repomem contributors since 2026', () => {
    const license = read('LICENSE');
    expect(license.split('\n')[0]).toBe('MIT License');
    expect(license).toContain('Copyright (c) 2026 repomem contributors');
  });
});

describe.each(packages)('$name', ({ folder }) => {
  const manifest = readJson(join(folder, 'package.json'));
  const directory = folder.slice(REPO_ROOT.length + 1);

  it('ships README.md and an identical LICENSE', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
    expect(existsSync(join(folder, 'README.md'))).toBe(true);
    expect(readFileSync(join(folder, 'LICENSE'), 'utf8')).toBe(read('LICENSE'));
  });

  it('names its repository folder, homepage and issue tracker', () => {
    expect(manifest.repository).toEqual({ type: 'git', url: `git+${REPOSITORY}.git`, directory });
    expect(manifest.homepage).toBe(`${REPOSITORY}/tree/main/${directory}#readme`);
    expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
  });

  it('has no side effects at import and publishes publicly with provenance', () => {
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  });
});

describe('release machinery', () => {
  it('versions every published package together with changesets', () => {
    const config = JSON.parse(read('.changeset/config.json'));
    expect(config).toMatchObject({ baseBranch: 'main', access: 'public', fixed: [['@repomem/*']] });
    const scripts = readJson(join(REPO_ROOT, 'package.json')).scripts as Record<string, string>;
    expect(scripts['version-packages']).toBe('changeset version');
    expect(scripts.release).toMatch(/turbo run build.*&& changeset publish$/);
  });

  it('publishes from a workflow with provenance, after the tests, only once NPM_TOKEN exists', () => {
    const workflow = read('.github/workflows/release.yml');
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}branches: \[main\]\n {2}workflow_dispatch:\n\n/m);
    expect(workflow).not.toMatch(/pull_request(_target)?:/);
    expect(workflow).toContain('id-token: write');
    expect(workflow).toContain('NPM_CONFIG_PROVENANCE: "true"');
    expect(workflow).toContain("if: needs.token.outputs.present == 'true'");
    expect(workflow.indexOf('run: ./dev test')).toBeGreaterThan(0);
    expect(workflow.indexOf('run: ./dev test')).toBeLessThan(workflow.indexOf('uses: changesets/action@v1'));
  });

  it('leaves CI running exactly the README test command', () => {
    expect(read('.ci/run')).toMatch(/\nexec \.\/dev test\n$/);
    expect(read('README.md')).toContain('./dev test ');
  });
});
