/**
 * The inputs two cores are compared on: seeded fleets of distinct VMs of every provider's newest edition (the
 * benchmarks' generator, bench/fleet.ts), cut into files of a few hundred VMs as users write them, then every
 * example and every spec and plan fixture of the repository.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { distinctFleet, fleetHead, FLEET_EDITIONS, type FleetEdition } from '../../bench/fleet';
import { filesUnder } from '../fixtures/files-under';

export const ROOT = join(__dirname, '../../..');

/** Every provider's newest edition: the fleets' and Azure's, which the benchmarks' fleets leave out. */
export const EDITIONS = [...FLEET_EDITIONS, 'azure-2026'] as const;

export interface Input {
  name: string;
  text: string;
}

/** `vms` distinct VMs of each edition, seeded, in files of `perFile` VMs. */
export function* fleetInputs(vms: number, perFile: number, seed: number): Generator<Input> {
  for (const edition of EDITIONS) {
    // The generator draws from any edition's catalog; its type names the benchmarks' three.
    const e = edition as FleetEdition;
    const lines = distinctFleet(e, vms, seed).text.split('\n');
    const head = fleetHead(e).length;
    let file: string[] = [];
    let count = 0;
    let part = 0;
    const flush = () => {
      const name = `fleet/${edition}/seed-${seed}/${String(part++).padStart(4, '0')}.perf.yaml`;
      const input = { name, text: [...lines.slice(0, head), ...file].join('\n') + '\n' };
      file = [];
      count = 0;
      return input;
    };
    for (const line of lines.slice(head)) {
      if (line.startsWith('  - name: ') && count++ === perFile) yield flush();
      if (line) file.push(line);
    }
    if (file.length) yield flush();
  }
}

/** The examples and the fixtures: specs, and the plans (`*.json` under test/fixtures/terraform, the corpus's too). */
export function* fileInputs(): Generator<Input> {
  const files = [
    ...filesUnder(join(ROOT, 'examples'), /\.perf\.yaml$/),
    ...filesUnder(join(ROOT, 'test/fixtures'), /\.perf\.yaml$/),
    ...filesUnder(join(ROOT, 'test/fixtures/terraform'), /^(?:plan|aws|gcp|yandex|azure)\.json$/),
  ];
  for (const f of files) yield { name: relative(ROOT, f).split('\\').join('/'), text: readFileSync(f, 'utf8') };
}
