/**
 * `npm run fuzz -- --seconds N [--seed S] [--no-server]`: fuzzes the whole pipeline for a time budget, target
 * after target, and saves every failing input into the seed corpus (test/fuzz-corpus/found-*), where the mocha
 * run replays it from then on. Exit 0 when nothing failed, 1 otherwise.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { LspClient } from '../../cli/src/lsp-client';
import {
  checkEditSequence,
  checkText,
  CORPUS_DIR,
  editSequence,
  generatedSpec,
  loadCorpus,
  mutatedSpec,
  type Edit,
  type Seed,
} from './pipeline';
import { checkServerSession } from './server-session';

/** The part of fast-check's run details used here. */
interface Outcome {
  failed: boolean;
  numRuns: number;
  counterexample: unknown[] | null;
  counterexamplePath: string | null;
  errorInstance: unknown;
}
interface Target {
  name: string;
  run: (seed: number) => Outcome | Promise<Outcome>;
}
const outcome = (r: unknown) => r as Outcome;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '60' }, seed: { type: 'string' }, 'no-server': { type: 'boolean', default: false } },
  });
  const seconds = Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    process.stderr.write('usage: npm run fuzz -- --seconds N [--seed S] [--no-server]\n');
    return 2;
  }
  const deadline = Date.now() + seconds * 1000;
  let seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
  const corpus = loadCorpus();
  const client = values['no-server'] ? undefined : new LspClient({ pull: true, timeoutMs: 20000 });
  if (client) await client.initialize();

  const targets: Target[] = [
    {
      name: 'generated',
      run: (s) =>
        outcome(
          fc.check(
            fc.property(generatedSpec, (t) => {
              checkText(t);
            }),
            { seed: s, numRuns: 50 },
          ),
        ),
    },
    {
      name: 'mutated',
      run: (s) =>
        outcome(
          fc.check(
            fc.property(mutatedSpec(corpus), ({ text }) => {
              checkText(text);
            }),
            { seed: s, numRuns: 200 },
          ),
        ),
    },
    {
      name: 'incremental',
      run: (s) =>
        outcome(
          fc.check(
            fc.property(editSequence(corpus), ({ seed: x, edits }) => {
              checkEditSequence(x, edits);
            }),
            { seed: s, numRuns: 20 },
          ),
        ),
    },
  ];
  if (client) {
    targets.push({
      name: 'server',
      run: async (s) =>
        outcome(
          await fc.check(
            fc.asyncProperty(editSequence(corpus), ({ seed: x, edits }) => checkServerSession(client, x, edits)),
            { seed: s, numRuns: 5 },
          ),
        ),
    });
  }

  const runs = new Map<string, number>();
  let failures = 0;
  try {
    while (Date.now() < deadline) {
      for (const t of targets) {
        if (Date.now() >= deadline) break;
        const s = seed++;
        const r = await t.run(s);
        runs.set(t.name, (runs.get(t.name) ?? 0) + r.numRuns);
        if (r.failed) {
          failures++;
          const file = save(r.counterexample?.[0]);
          process.stdout.write(
            `FAIL ${t.name} seed=${s} path=${r.counterexamplePath}\n  saved: ${file}\n  ${String(
              (r.errorInstance as Error | undefined)?.message ?? r.errorInstance,
            )
              .split('\n')
              .join('\n  ')}\n`,
          );
        }
      }
    }
  } finally {
    await client?.stop();
  }
  process.stdout.write(
    `fuzzed ${seconds} s: ${[...runs].map(([n, k]) => `${n} ${k}`).join(', ')}; ${failures} failure${failures === 1 ? '' : 's'}\n`,
  );
  return failures ? 1 : 0;
}

/** A failing input into the corpus: a text as a .yaml seed, an edit sequence as .edits.json. */
function save(example: unknown): string {
  const isSequence = (x: unknown): x is { seed: Seed; edits: Edit[] } => !!x && typeof x === 'object' && 'edits' in x;
  const text = typeof example === 'string' ? example : isSequence(example) ? undefined : (example as { text?: string } | undefined)?.text;
  const body = text ?? JSON.stringify(isSequence(example) ? { seed: example.seed.name, edits: example.edits } : example, null, 1);
  const name = `found-${createHash('sha1').update(body).digest('hex').slice(0, 10)}${text !== undefined ? '.yaml' : '.edits.json'}`;
  writeFileSync(join(CORPUS_DIR, name), body);
  return join('test/fuzz-corpus', name);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`fuzz: ${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 2;
  },
);
