/**
 * A VM as the model sees it, as JSON: everything but its own name and the JSON pointers of it and its parts.
 * VMs written alike (replicas named apart, or moved by an edit above them) give the same text, so that the
 * evaluation cache, the advice memo and the size-search memo share their work between them. The disks' and
 * workloads' names stay in: workloads refer to disks by name.
 */
import type { VmSpec } from './types';

export function vmContent(vm: VmSpec): string {
  const { path, name, ...content } = vm;
  // Pointers have no quote inside, so the pattern ends at a pointer's own closing quote (a quote in a string
  // value is escaped, so no value can look like one). Native stringify and one replace: a replacer function
  // cost several times as much.
  return JSON.stringify(content).replace(/"path":"[^"]*",?/g, '');
}
