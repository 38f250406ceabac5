/**
 * A Terraform plan against the YAML spec of the same VMs and disks: analyze() of each, in the same run. A plan
 * of N instances, each with a boot disk and a data disk resource joined by a configuration reference, has 2N
 * resources.
 */
import { analyze, joinTfFiles, parseTerraformPlan, terraformFilesFrontEnd, type HclParse } from '../core/src';

const MACHINES = ['n2-standard-8', 'n2-standard-16', 'e2-standard-4', 'c3-standard-22', 'n1-standard-32'];
const diskType = (k: number) => (k % 3 ? 'pd-ssd' : 'pd-balanced');
const diskSize = (k: number) => 100 + (k % 40) * 50;

/**
 * A plan in the documented JSON format (https://developer.hashicorp.com/terraform/internals/json-format), on
 * one line as `terraform show -json` writes it.
 */
export function planWithInstances(n: number): string {
  const resources: object[] = [];
  const config: object[] = [];
  const G = 'registry.terraform.io/hashicorp/google';
  for (let k = 0; k < n; k++) {
    const disk = { type: 'google_compute_disk', name: `data${k}` };
    const vm = { type: 'google_compute_instance', name: `vm${k}` };
    resources.push(
      {
        address: `google_compute_disk.data${k}`,
        mode: 'managed',
        ...disk,
        provider_name: G,
        schema_version: 0,
        values: { name: `data-${k}`, type: diskType(k), size: diskSize(k), zone: 'us-central1-a' },
        sensitive_values: {},
      },
      {
        address: `google_compute_instance.vm${k}`,
        mode: 'managed',
        ...vm,
        provider_name: G,
        schema_version: 6,
        values: {
          name: `vm-${k}`,
          machine_type: MACHINES[k % MACHINES.length],
          zone: 'us-central1-a',
          boot_disk: [{ initialize_params: [{ size: 200, type: 'pd-standard' }] }],
          attached_disk: [{ mode: 'READ_WRITE' }],
        },
        sensitive_values: {},
      },
    );
    config.push({
      address: `google_compute_instance.vm${k}`,
      mode: 'managed',
      ...vm,
      provider_config_key: 'google',
      expressions: { attached_disk: [{ source: { references: [`google_compute_disk.data${k}.id`, `google_compute_disk.data${k}`] } }] },
      schema_version: 6,
    });
  }
  return JSON.stringify({
    format_version: '1.2',
    terraform_version: '1.9.8',
    planned_values: { root_module: { resources } },
    configuration: { root_module: { resources: config } },
  });
}

/** The same VMs and disks as a YAML spec. */
export function specWithInstances(n: number): string {
  const lines = ['version: 1', 'provider: gcp', 'region: us-central1', 'vms:'];
  for (let k = 0; k < n; k++)
    lines.push(
      `  - name: vm${k}`,
      `    machine_type: ${MACHINES[k % MACHINES.length]}`,
      '    disks:',
      '      - name: boot',
      '        type: pd-standard',
      '        size: 200GiB',
      `      - name: data${k}`,
      `        type: ${diskType(k)}`,
      `        size: ${diskSize(k)}GiB`,
    );
  return lines.join('\n') + '\n';
}

export function benchTerraform(time: (fn: () => void) => { median: number }): string[] {
  const out = [
    '## Terraform plan vs the YAML spec of the same VMs (analyze)',
    '',
    '| resources | plan median ms | YAML spec median ms | ratio |',
    '|---|---|---|---|',
  ];
  for (const n of [50, 5000]) {
    const plan = planWithInstances(n);
    const spec = specWithInstances(n);
    const p = time(() => analyze(plan, { frontEnd: parseTerraformPlan }));
    const y = time(() => analyze(spec));
    out.push(
      `| ${(2 * n).toLocaleString('en-US')} | ${p.median.toFixed(1)} | ${y.median.toFixed(1)} | ${(p.median / y.median).toFixed(2)}× |`,
    );
  }
  return out;
}

/** The same VMs and disks as the .tf file of a module: each instance's data disk joined by a reference. */
export function tfWithInstances(n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++)
    out.push(
      `resource "google_compute_disk" "data${k}" {`,
      `  name = "data-${k}"`,
      `  type = "${diskType(k)}"`,
      `  size = ${diskSize(k)}`,
      '  zone = "us-central1-a"',
      '}',
      `resource "google_compute_instance" "vm${k}" {`,
      `  name         = "vm-${k}"`,
      `  machine_type = "${MACHINES[k % MACHINES.length]}"`,
      '  zone         = "us-central1-a"',
      '  boot_disk {',
      '    initialize_params {',
      '      size = 200',
      '      type = "pd-standard"',
      '    }',
      '  }',
      '  attached_disk {',
      `    source = google_compute_disk.data${k}.id`,
      '  }',
      '}',
    );
  return out.join('\n') + '\n';
}

/** A .tf file of 2N resources against the YAML spec of the same VMs (the HCL parse included). */
export function benchTerraformFiles(time: (fn: () => void) => { median: number }, parse: HclParse): string[] {
  const out = [
    '## Terraform .tf file vs the YAML spec of the same VMs (analyze, the HCL parse included)',
    '',
    '| resources | .tf median ms | YAML spec median ms | ratio |',
    '|---|---|---|---|',
  ];
  for (const n of [50, 5000]) {
    const files = [{ path: 'main.tf', text: tfWithInstances(n) }];
    const { text } = joinTfFiles(files);
    const frontEnd = terraformFilesFrontEnd(parse, files);
    const spec = specWithInstances(n);
    const t = time(() => analyze(text, { frontEnd }));
    const y = time(() => analyze(spec));
    out.push(
      `| ${(2 * n).toLocaleString('en-US')} | ${t.median.toFixed(1)} | ${y.median.toFixed(1)} | ${(t.median / y.median).toFixed(2)}× |`,
    );
  }
  return out;
}
