/**
 * `npm run invariants -- [--runs N] [--seed S]`: the invariant suite (./invariants.test.ts) with more generated
 * specs per edition than `npm test` checks (100), and a seed of one's choice (a new one finds new specs). A
 * failure prints the shrunk spec as YAML, with the seed that found it. Exit 0 when every invariant held.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Mocha from 'mocha';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '500' }, seed: { type: 'string', default: String(Date.now() % 2 ** 31) } },
});
process.env.INVARIANT_RUNS = values.runs;
process.env.INVARIANT_SEED = values.seed;
process.stdout.write(`invariants: ${values.runs} specs per edition and property, seed ${values.seed}\n`);
const mocha = new Mocha({ timeout: 0, reporter: 'spec' });
mocha.addFile(join(__dirname, 'invariants.test.js'));
mocha.run((failures) => {
  process.exitCode = failures ? 1 : 0;
});
