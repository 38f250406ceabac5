/**
 * Which front end reads a file, with the I/O it needs (the core stays pure): a Terraform plan for `.json`, a
 * workload sidecar (`terraform: plan.json`) with its plan read from beside it, else the YAML spec's.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndFor, sidecarFrontEnd, sidecarPlanPath, type ParsedSpec } from '../../core/src';
import { ioReason } from './file-io';

/** `file` is a path or a file: URI; the text is the file's (an editor's buffer may differ from the disk). */
export function frontEndForFile(file: string, text: string): ((text: string) => ParsedSpec) | undefined {
  const plan = frontEndFor(file) ? undefined : sidecarPlanPath(text);
  if (plan === undefined) return frontEndFor(file);
  let path: string;
  try {
    path = resolve(dirname(file.startsWith('file:') ? fileURLToPath(file) : file), plan);
  } catch {
    return sidecarFrontEnd({ error: `${plan} is not beside a file on disk` });
  }
  try {
    return sidecarFrontEnd({ text: readFileSync(path, 'utf8') });
  } catch (e) {
    return sidecarFrontEnd({ error: `cannot read ${plan}: ${ioReason(e)}` });
  }
}
