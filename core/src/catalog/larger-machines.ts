/** The larger machines of a machine, for the searches that lift a cap by a larger machine (../advice). */
import { localSsdOf, memoryRange, runValues, vcpuChoices, type Machine } from './machines';
import { shared } from './shared-machines';
import type { CustomMachineRule } from './types';

// Kept with the machine, which is never changed once made.
const largerMemo = new WeakMap<Machine, readonly Machine[]>();

/**
 * Larger machines of the same kind, smallest first: the same series and family (and suffix, which keeps the
 * local SSDs that come with it); for a custom type, the larger custom shapes with the same memory per vCPU; for
 * a named shape (e2-medium, e2-custom-medium-6144), the series' predefined types by vCPU count, each named as
 * a real type (the first family that offers the count), since a fix writes the name into machine_type.
 */
export function largerMachines(m: Machine): readonly Machine[] {
  let larger = largerMemo.get(m);
  // Each one the object a machine of its name is (`shared`).
  if (!larger) largerMemo.set(m, (larger = largerMade(m).map(shared)));
  return larger;
}

function largerMade(m: Machine): Machine[] {
  if (!m.info.families && m.info.shapes?.[m.name] !== undefined) return largerShapes(m, m.info.shapes);
  const rule = m.info.custom;
  if (m.custom && rule && !m.limits_as) return largerCustom(m, rule);
  const sx = m.suffix ? m.info.suffixes?.[m.suffix] : undefined;
  const list = m.family ? (sx ? sx.families[m.family] : m.info.families?.[m.family]) : undefined;
  const tail = m.suffix ? `-${m.suffix}` : '';
  return [...(list ?? vcpuChoices(m.info))]
    .sort((a, b) => a - b)
    .filter((v) => v > m.vcpus)
    .map((v) => {
      const family = m.family ?? Object.keys(m.info.families ?? {}).find((f) => m.info.families![f].includes(v));
      const name = family ? `${m.series}-${family}-${v}${tail}` : `${m.series} with ${v} vCPUs`;
      // A larger machine is a predefined type of its own: it has neither the shape's limits nor its custom memory.
      return { ...m, family, vcpus: v, name, local_ssd: localSsdOf(m.info, name), limits_as: undefined, custom: undefined };
    });
}

/**
 * A series made only of named sizes (AWS: m6i.large ... m6i.metal) lists them smallest first; the larger ones
 * are those after this one, whatever their vCPUs (t3.small and t3.large both have 2, with different limits).
 */
function largerShapes(m: Machine, shapes: Record<string, number>): Machine[] {
  const names = Object.keys(shapes);
  // Shapes of the same kind only (a2-highgpu-1g to -8g, m5.large to m5.24xlarge, Standard_D2s_v5 to D96s_v5; not
  // a2-megagpu-16g to the A2 Ultra shapes listed after it, which have fewer vCPUs and come with local SSD), and never
  // fewer vCPUs.
  const kind = (name: string) => name.replace(/(\.[a-z0-9-]+|-\d+[a-z]*)$/, '').replace(/^(Standard_[A-Z]+)\d+/, '$1');
  return names
    .slice(names.indexOf(m.name) + 1)
    .filter((name) => kind(name) === kind(m.name) && shapes[name] >= m.vcpus)
    .map((name) => ({ ...m, vcpus: shapes[name], name, local_ssd: localSsdOf(m.info, name), limits_as: undefined, custom: undefined }));
}

function largerCustom(m: Machine, rule: CustomMachineRule): Machine[] {
  const perVcpu = m.custom!.memory_mib / m.vcpus;
  return runValues(rule.vcpus)
    .filter((v) => v > m.vcpus)
    .map((v) => {
      const { min, max } = memoryRange(rule, v, m.custom!.extended);
      const memory = Math.min(Math.max(Math.round((perVcpu * v) / rule.memory_step_mib) * rule.memory_step_mib, min), max);
      const name = `${rule.prefix}-${v}-${memory}${m.custom!.extended ? '-ext' : ''}`;
      return { ...m, vcpus: v, name, custom: { memory_mib: memory, extended: m.custom!.extended } };
    });
}
