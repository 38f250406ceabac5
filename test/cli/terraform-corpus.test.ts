/**
 * The Terraform corpus (test/fixtures/terraform/corpus): public repositories with compute resources, each
 * folder run through the built CLI as scripts/terraform-corpus.mjs runs it. What must hold now and always: no
 * crash, every folder analysed, the plans read as their .tf files are, and docs/terraform-corpus.md current.
 * The goals (the share of folders that yield figures, time) are measured in that file, not asserted here.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from '../fixtures/files-under';
import { corpusMarkdown, DOC, maskTimes } from '../fixtures/terraform-corpus/markdown';
import { comparePlan, PLAN_NOTE, planFolders, type PlanComparison } from '../fixtures/terraform-corpus/plans';
import {
  CORPUS,
  corpusFolders,
  crashOf,
  DOCUMENTED_EXITS,
  messageAddress,
  ROOT,
  runCorpus,
  typeOf,
  type FolderResult,
} from '../fixtures/terraform-corpus/run';

const LICENCES = /Apache License|MIT License|Mozilla Public License Version 2\.0|BSD/;

describe('the Terraform corpus', function () {
  // Some hundred CLI runs of about a second each, two at once.
  this.timeout(30 * 60 * 1000);
  const folders = corpusFolders();
  let results: FolderResult[] = [];
  const plans: PlanComparison[] = [];

  before(async () => {
    results = await runCorpus(2, folders);
    for (const f of planFolders(folders)) plans.push(await comparePlan(f));
  });

  it('holds at least 15 repositories, each with its licence and the commit it is pinned to, and small files only', () => {
    const repos = readdirSync(join(ROOT, CORPUS)).filter((d) => statSync(join(ROOT, CORPUS, d)).isDirectory());
    assert.ok(repos.length >= 15, repos.join(', '));
    const readme = readFileSync(join(ROOT, CORPUS, 'README.md'), 'utf8');
    for (const repo of repos) {
      const [owner, name] = repo.split('--');
      assert.match(readFileSync(join(ROOT, CORPUS, repo, 'LICENSE'), 'utf8'), LICENCES, repo);
      assert.match(
        readFileSync(join(ROOT, CORPUS, repo, 'SOURCE'), 'utf8'),
        new RegExp(`^https://github\\.com/${owner}/${name}\ncommit [0-9a-f]{40}\n$`),
        repo,
      );
      assert.ok(readme.includes(`\`${repo}\``), `${repo} is not in the corpus README`);
      for (const f of filesUnder(join(ROOT, CORPUS, repo)))
        assert.ok(/(\.tf|\.tf\.json|\.tfvars|\/LICENSE|\/SOURCE|\/plan\.json)$/.test(f), `${f} is not a kind the corpus keeps`);
    }
    for (const f of filesUnder(join(ROOT, CORPUS)).filter((x) => !x.endsWith('plan.json')))
      assert.ok(statSync(f).size <= 200 * 1024, `${f} is over 200 KB`);
  });

  it('analyses every folder that holds .tf files: each run gives its JSON report with exit 0 or 1', () => {
    assert.ok(folders.length >= 100, `${folders.length} folders`);
    assert.deepEqual(
      results.map((r) => r.folder),
      folders,
    );
    const unread = results.filter((r) => !r.analysed).map((r) => `${r.folder}: exit ${r.exit}`);
    assert.deepEqual(unread, []);
  });

  it('never crashes: no exit code `evaluate` does not document, no signal, no stack trace on stderr', () => {
    assert.deepEqual(
      results.filter((r) => r.crash).map((r) => `${r.folder}: ${r.crash}`),
      [],
    );
    for (const r of results) assert.ok(r.exit !== null && DOCUMENTED_EXITS.includes(r.exit), r.folder);
  });

  it('tells a crash from a finding: an exit code not documented, a signal and a stack trace are crashes', () => {
    assert.equal(crashOf({ code: 1, signal: null, stderr: 'terraform-syntax: ...\n' }), null);
    assert.equal(crashOf({ code: 134, signal: null, stderr: '' }), 'exit 134');
    assert.equal(crashOf({ code: null, signal: 'SIGSEGV', stderr: '' }), 'killed by SIGSEGV');
    const trace = "TypeError: Cannot read properties of undefined (reading 'x')\n    at readTf (/x/cli/dist/cli.js:10:5)\n";
    assert.equal(crashOf({ code: 2, signal: null, stderr: trace }), 'a stack trace on stderr');
    assert.equal(messageAddress('module.db["a"].aws_instance.x[0]\'s root volume is not set here'), 'module.db.aws_instance.x');
  });

  it('counts a finding as about a resource type only where its message starts with one, not with a machine type', () => {
    assert.equal(typeOf(messageAddress("module.a.aws_security_group.sg's name is unknown")), 'aws_security_group');
    assert.equal(typeOf(messageAddress("m5.large's per-instance limit caps aws_instance.x.root_block_device")), null);
    assert.equal(typeOf(messageAddress("g4dn.xlarge's per-instance limit caps it")), null);
  });

  it('reads the same VMs from a real plan as from the .tf files beside it', () => {
    assert.ok(plans.length >= 1, 'no plan.json in the corpus');
    for (const p of plans) {
      assert.equal(p.tf.crash ?? p.plan.crash, null, p.folder);
      assert.deepEqual(Object.keys(p.plan.regions).sort(), Object.keys(p.tf.regions).sort(), p.folder);
      assert.ok(Object.keys(p.tf.regions).length > 0, `${p.folder}: no VM`);
    }
  });

  // A plan's provider region (`configuration.provider_config`) is read as the .tf files' provider block is.
  it('prices each VM of a real plan in the region its .tf files give, with the same total', () => {
    for (const p of plans) {
      assert.deepEqual(p.plan.regions, p.tf.regions, p.folder);
      assert.equal(p.plan.total, p.tf.total, p.folder);
    }
  });

  it(`${DOC}'s tables give each row a cell under every heading`, () => {
    const md = corpusMarkdown(results, plans, PLAN_NOTE);
    const cells = (l: string) => l.replace(/`[^`]*`/g, 'x').split('|').length;
    let heading = 0;
    for (const l of md.split('\n')) {
      if (!l.startsWith('|')) heading = 0;
      else if (heading === 0) heading = cells(l);
      else assert.equal(cells(l), heading, l);
    }
  });

  it(`${DOC} is what scripts/terraform-corpus.mjs writes (wall times aside): run npm run corpus`, () => {
    const committed = readFileSync(join(ROOT, DOC), 'utf8');
    assert.equal(maskTimes(committed), maskTimes(corpusMarkdown(results, plans, PLAN_NOTE)));
  });
});
