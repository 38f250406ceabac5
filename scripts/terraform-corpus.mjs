#!/usr/bin/env node
// Runs the built CLI on every folder of the Terraform corpus (test/fixtures/terraform/corpus) that holds .tf files
// and on the plans beside them, and writes what it measures to docs/terraform-corpus.md. Run after
// `npm run build` (`npm run corpus`); test/cli/terraform-corpus.test.ts fails when the file is stale.
// --jobs N runs N folders at once (default 2).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const req = createRequire(import.meta.url);
const dir = join(root, 'out', 'test', 'fixtures', 'terraform-corpus');
const { runCorpus, corpusFolders } = req(join(dir, 'run.js'));
const { comparePlan, planFolders, PLAN_NOTE } = req(join(dir, 'plans.js'));
const { corpusMarkdown, meetsGoal, DOC } = req(join(dir, 'markdown.js'));

const at = process.argv.indexOf('--jobs');
const jobs = at > 0 ? Number(process.argv[at + 1]) : 2;
const folders = corpusFolders();
const results = await runCorpus(jobs, folders);
const plans = [];
for (const f of planFolders(folders)) plans.push(await comparePlan(f));
writeFileSync(join(root, DOC), corpusMarkdown(results, plans, PLAN_NOTE));
const declaring = results.filter((r) => r.declared.length > 0);
process.stdout.write(
  `${DOC}: ${results.length} folders, ${results.filter((r) => r.crash).length} crashes, ` +
    `${declaring.filter(meetsGoal).length} of ${declaring.length} folders that declare VMs meet the goal\n`,
);
