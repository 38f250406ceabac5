/**
 * The sidecar's schema, made from the spec's: its top-level keys are the spec's but `vms`, plus `terraform`, and
 * its workloads are the spec's workload with `vm` (and `disk`) naming resources by Terraform address. Built from
 * the spec schema so that a workload key added there is a sidecar key too.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import specSchema from '../../../schemas/storage-perf.schema.json';

interface ObjectSchema {
  properties: Record<string, unknown>;
  required?: string[];
  [k: string]: unknown;
}

function sidecarSchema(): object {
  const spec = specSchema as unknown as ObjectSchema & { definitions: Record<string, ObjectSchema> };
  const { vms: _vms, ...top } = spec.properties;
  const address = { type: 'string', minLength: 1 };
  const workload = spec.definitions.workload;
  return {
    ...spec,
    $id: 'https://storage-perf.dev/schemas/storage-perf-sidecar.schema.json',
    // `vm` is not required here: a workload without it is `terraform-unknown-address`, said once.
    required: ['terraform'],
    properties: { ...top, terraform: address, workloads: { type: 'array', items: { $ref: '#/definitions/sidecarWorkload' } } },
    definitions: {
      ...spec.definitions,
      sidecarWorkload: { ...workload, properties: { ...workload.properties, vm: address, disk: address } },
    },
  };
}

let validator: ValidateFunction | undefined;

/** Compiled on first use, with the options the spec's validator is compiled with. */
export function sidecarValidator(): ValidateFunction {
  validator ??= new Ajv({ allErrors: true, strict: false, verbose: true }).compile(sidecarSchema());
  return validator;
}
