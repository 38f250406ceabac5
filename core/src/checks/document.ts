/**
 * Document & schema: the file as text and YAML, and the spec's structure. Most of these codes are raised by
 * the parser (../document/parse.ts) as it builds the typed spec; this module declares them and adds what the
 * parser cannot see (the text's encoding).
 */
import type { CheckModule, SpecContext } from './types';

export const document: CheckModule = {
  id: 'document',
  title: 'Document and schema',
  about: "The file as text and as YAML, and the spec's structure: keys, types, quantities and names. Nothing here needs a catalog.",
  codes: {
    'yaml-syntax': {
      severity: 'error',
      summary: 'The file is not valid YAML.',
      docs: 'Also raised for an alias to an unknown anchor or to a node that contains it. Nothing else is checked until the YAML parses.',
    },
    'yaml-duplicate-key': {
      severity: 'error',
      summary: 'A key appears twice in the same mapping.',
      docs: 'Only the last one would count; remove the other.',
    },
    'yaml-complex-key': { severity: 'error', summary: 'A mapping key is itself a mapping or list.', docs: 'Keys are plain text.' },
    'yaml-multiple-documents': {
      severity: 'warning',
      summary: 'The file holds more than one YAML document.',
      docs: 'Everything after the first `---` document is ignored.',
    },
    'yaml-alias-limit': {
      severity: 'error',
      summary: 'Aliases expand the document beyond the size limit.',
      docs: 'The work on a document follows its size with aliases expanded. Aliases may add at most 4 nodes per node written, and at least 10,000; a document they grow further (a "billion laughs", or hundreds of VMs aliasing one long list) is not analysed. Reported on the anchor whose aliases add the most.',
    },
    'empty-spec': {
      severity: 'error',
      summary: 'The file holds no spec.',
      docs: 'A spec starts with `version: 1`, `provider:` and `vms:`.',
    },
    encoding: {
      severity: 'error',
      summary: 'The file is not UTF-8 text (binary, UTF-16, or bytes that are not UTF-8).',
      docs: 'NUL characters (binary or UTF-16) are an error, the only finding of the file: what YAML makes of such a file says nothing more. Bytes that are not UTF-8, replaced on reading, are a warning. Save the file as UTF-8.',
    },
    'unknown-key': {
      severity: 'error',
      summary: 'A key the spec format does not define.',
      docs: 'A misspelt key gets a rename fix to the key it is closest to.',
    },
    'missing-key': { severity: 'error', summary: 'A required key is missing.', docs: 'The message names the key and where it belongs.' },
    'wrong-type': {
      severity: 'error',
      summary: 'A value has the wrong type.',
      docs: 'For example a list where a mapping belongs, or text where a number does.',
    },
    'invalid-value': {
      severity: 'error',
      summary: 'A value is not one of the allowed values.',
      docs: 'Also raised for a setting the disk type does not offer (a regional disk of a type that has none, a local SSD interface that does not exist).',
    },
    'out-of-range': {
      severity: 'error',
      summary: 'A number is outside its allowed range.',
      docs: 'Ratios run from 0 to 1; counts and depths are positive; numbers must be finite. A read ratio written as a whole percentage (70) has one fix, the fraction (0.7); one that reads several ways (1.5: 1.5% or 1.5 reads per write) has a fix for each reading and for 1, none preferred, so `--fix` leaves it alone.',
    },
    'unsupported-version': { severity: 'error', summary: 'The spec version is not supported.', docs: 'Write `version: 1`.' },
    'bad-quantity': {
      severity: 'error',
      summary: 'A size, throughput or block size cannot be read (bad number or unit).',
      docs: 'See the units in docs/model.md.',
    },
    'duplicate-name': {
      severity: 'error',
      summary: 'Two VMs, disks or workloads share a name.',
      docs: "Names identify VMs, disks and workloads in findings, reports and fio jobs. A workload whose `disk` is a name two disks share is not evaluated (its figures over both would read as one disk's): the finding on the second name says so.",
    },
    'missing-machine': {
      severity: 'error',
      summary: 'A VM needs machine_type, or series and vcpus.',
      docs: 'Name the machine with `machine_type: n2-standard-8`, or give `series` and `vcpus`.',
    },
    'unknown-disk-ref': {
      severity: 'error',
      summary: 'A workload names a disk the VM does not have.',
      docs: "A workload's `disk` is the name of one of its VM's disks; without it, the workload runs on all of them.",
    },
  },
  spec: encoding,
};

/**
 * Text that did not decode as UTF-8: NUL characters mean binary or UTF-16/32 (YAML refuses them anyway, with a
 * message that does not say why); U+FFFD means a decoder replaced bytes that were not UTF-8.
 */
function encoding({ text, report }: SpecContext): void {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    // Every other character NUL, little- or big-endian, after a byte order mark (FF FE or FE FF, each byte
    // replaced by U+FFFD when read as UTF-8) or none.
    const utf16 = /^(?:\uFFFD\uFFFD|\uFEFF)?(?:[^\u0000]\u0000[^\u0000]\u0000|\u0000[^\u0000]\u0000[^\u0000])/.test(text);
    report(
      'encoding',
      utf16 ? 'this file is UTF-16 text: save it as UTF-8' : 'this file holds NUL characters: it is binary, not a UTF-8 text spec',
      { start: nul, end: nul + 1 },
    );
    return;
  }
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    report(
      'encoding',
      'this file is not valid UTF-8: bytes that are not UTF-8 were replaced by U+FFFD; save it as UTF-8',
      { start: bad, end: bad + 1 },
      { severity: 'warning' },
    );
  }
}
