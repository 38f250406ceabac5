/**
 * `evaluate --set ADDRESS.ATTRIBUTE=VALUE` on Terraform input (a plan, a .tf file or a module folder): the value
 * the resource writes is replaced in the analysed text, in memory (nothing is written to disk), and the input read
 * again. Only a literal written in the resource itself is changed: a value from a variable, a local or an
 * expression, or one written once for several instances (`count`), would change more than the address says, and
 * is refused with the reason.
 */
import { analyze, blockAddress, suggest, terraformFilesFrontEnd } from '../../core/src';
import { hclParser } from '../../protocol/src/hcl-parser';
import type { AnalysisInput } from '../../protocol/src/terraform-input';
import { UsageError } from './args';

type Analysis = ReturnType<typeof analyze>;

/** Terraform's attribute names (AWS, Yandex) as the spec's keys; Google's are the spec's own. */
const ATTRIBUTES: Record<string, string> = {
  instance_type: 'machine_type',
  volume_type: 'type',
  volume_size: 'size',
  iops: 'provisioned_iops',
  throughput: 'provisioned_throughput',
  platform_id: 'series',
  cores: 'vcpus',
};

/** The spec keys a Terraform value is read into, and `--set` changes. */
const SET = new Set(['machine_type', 'series', 'vcpus', 'type', 'size', 'provisioned_iops', 'provisioned_throughput']);

/** The input with `path` (an address and an attribute) set to `raw`, or a UsageError saying why it cannot be. */
export function setOnTerraform(input: AnalysisInput, a: Analysis, set: string, path: string, raw: string): AnalysisInput {
  const owners = a.spec!.vms.flatMap((v) => [{ name: v.name, path: v.path }, ...v.disks.map((d) => ({ name: d.name, path: d.path }))]);
  const owner = owners.filter((o) => path.startsWith(`${o.name}.`)).sort((x, y) => y.name.length - x.name.length)[0];
  if (!owner) {
    const address = path.slice(0, path.lastIndexOf('.'));
    const instances = owners.filter((o) => blockAddress(o.name) === address && o.name !== address).map((o) => o.name);
    if (instances.length) throw new UsageError(`--set '${set}': ${address} has instances (${instances.join(', ')}): name one`);
    const near = suggest(
      address,
      owners.map((o) => o.name),
    );
    throw new UsageError(`--set '${set}': no VM or disk ${address} in this configuration${near ? `; did you mean ${near}?` : ''}`);
  }
  const attribute = path.slice(owner.name.length + 1);
  if (!SET.has(ATTRIBUTES[attribute] ?? attribute))
    throw new UsageError(
      `--set '${set}': ${attribute} is not a value storage-perf reads; it sets ${[...SET].join(', ')} (AWS's and Yandex's names too)`,
    );
  const pointer = `${owner.path}/${ATTRIBUTES[attribute] ?? attribute}`;
  const node = a.parsed.tree.nodes.get(pointer)?.value;
  const within = a.parsed.tree.nodes.get(owner.path)?.value;
  if (!node || node.kind !== 'scalar' || !within)
    throw new UsageError(
      `--set '${set}': ${owner.name} does not write ${attribute} (the provider's default, or a value known only after apply): write it in the configuration first`,
    );
  const written = a.parsed.text.slice(node.start, node.end);
  const literal = typeof node.value === 'number' ? String(node.value) : JSON.stringify(node.value);
  if (written !== literal || node.start < within.start || node.end > within.end)
    throw new UsageError(
      `--set '${set}': ${owner.name}'s ${attribute} is not a literal written in it (a variable, a local or an expression): set that instead`,
    );
  const same = owners.filter((o) => {
    const n = a.parsed.tree.nodes.get(`${o.path}/${ATTRIBUTES[attribute] ?? attribute}`)?.value;
    return n !== undefined && n.start === node.start && n.end === node.end;
  });
  if (same.length > 1)
    throw new UsageError(
      `--set '${set}': ${attribute} is written once for ${same.length} instances (${same.map((o) => o.name).join(', ')}); one cannot be changed alone`,
    );
  const value = /^-?\d+(\.\d+)?$/.test(raw) ? raw : JSON.stringify(raw);
  const text = a.parsed.text.slice(0, node.start) + value + a.parsed.text.slice(node.end);
  const sources = a.parsed.sources;
  if (!sources) return { ...input, text };
  // A module's files are read from their own texts: the edited one is cut out of the edited whole.
  const delta = value.length - (node.end - node.start);
  const files = sources.map((s) => {
    const shift = node.start < s.start ? delta : 0;
    const grow = node.start >= s.start && node.start <= s.end ? delta : 0;
    return { path: s.path, text: text.slice(s.start + shift, s.end + shift + grow) };
  });
  return { ...input, text, frontEnd: terraformFilesFrontEnd(hclParser()!, files, input.vars, input.modules) };
}
