/**
 * A short run of the pipeline fuzzer (the long one is `npm run fuzz -- --seconds N`): the seed corpus, specs
 * generated from the schema, mutations of the corpus, and edit sequences — in process and through the server.
 *
 * Seeded, so that every run of `npm test` (CI's too) tries the same inputs: FUZZ_SEED (an integer) sets another
 * seed, and a failure names the seed and fast-check's path to the failing input, which reproduce it with
 * `FUZZ_SEED=<seed> npx mocha --no-config out/test/robustness/fuzz.test.js`. New inputs are the long run's work.
 */
import fc from 'fast-check';
import { LspClient } from '../../cli/src/lsp-client';
import { checkEditSequence, checkText, editSequence, generatedSpec, loadCorpus, loadEditSequences, mutatedSpec } from '../fuzz/pipeline';
import { checkServerSession } from '../fuzz/server-session';

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not '${process.env.FUZZ_SEED}'`);

/** fast-check's options for one property: the seed, and a failure that says how to run it again. */
function seeded<T>(numRuns: number): fc.Parameters<T> {
  return {
    seed: SEED,
    numRuns,
    reporter: (r) => {
      if (r.failed)
        throw new Error(`fuzz failure with FUZZ_SEED=${SEED} (fast-check path ${r.counterexamplePath}):\n${fc.defaultReportMessage(r)}`);
    },
  };
}

describe(`fuzzing the pipeline (short run, FUZZ_SEED=${SEED})`, function () {
  this.timeout(60000);
  const corpus = loadCorpus();

  it('every seed of the corpus keeps the invariants, and every saved edit sequence replays cleanly', () => {
    for (const s of corpus) {
      try {
        checkText(s.text);
      } catch (e) {
        throw new Error(`${s.name}: ${(e as Error).message}`);
      }
    }
    for (const x of loadEditSequences()) checkEditSequence(x.seed, x.edits);
  });

  it('specs generated from the schema: nothing throws, ranges inside the document, figures within caps', () => {
    fc.assert(
      fc.property(generatedSpec, (t) => {
        checkText(t);
      }),
      seeded(150),
    );
  });

  it('byte and token mutations of the corpus keep the invariants', () => {
    fc.assert(
      fc.property(mutatedSpec(corpus), ({ text }) => {
        checkText(text);
      }),
      seeded(600),
    );
  });

  it('edit sequences: the analysis with the evaluation cache equals a fresh one after every edit', () => {
    fc.assert(
      fc.property(editSequence(corpus), ({ seed, edits }) => {
        checkEditSequence(seed, edits);
      }),
      seeded(60),
    );
  });

  it('edit sequences through didChange (incremental sync) give what a full analysis gives', async () => {
    const client = new LspClient({ pull: true, timeoutMs: 20000 });
    try {
      await client.initialize();
      await fc.assert(
        fc.asyncProperty(editSequence(corpus), ({ seed, edits }) => checkServerSession(client, seed, edits)),
        seeded(30),
      );
    } finally {
      await client.stop();
    }
  });
});
