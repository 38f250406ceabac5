/**
 * Terraform input: what the Terraform front end (../terraform) finds while it turns a plan into the spec's VMs
 * and disks. Every code here is raised by the front end; the VMs it builds are then checked like any spec's.
 */
import type { CheckModule } from './types';

export const terraform: CheckModule = {
  id: 'terraform',
  title: 'Terraform input',
  about:
    "A Terraform plan (`terraform show -json PLANFILE`) or a module's `.tf` files read as VMs and disks: the input itself, values known only after apply (or, in `.tf` files, until plan), and disks that are shared or attached to nothing.",
  codes: {
    'terraform-syntax': {
      severity: 'error',
      summary: 'The plan file is not valid JSON, or a .tf file is not valid HCL.',
      docs: 'Write the plan with `terraform show -json PLANFILE > plan.json`; nothing else is read until the JSON parses. In `.tf` files, the first line that does not parse is shown (`terraform validate` says more), and nothing else is read until it does.',
    },
    'terraform-plan-format': {
      severity: 'error',
      summary: 'The JSON is not a Terraform plan, or a plan of a format version this does not read.',
      docs: 'storage-perf reads the plan JSON format 1.x that Terraform 1.x writes: an object with `format_version` and `planned_values`.',
    },
    'terraform-unknown-value': {
      severity: 'information',
      summary: 'A value the figures need is known only after apply (in .tf files: until plan), or its disk is not in the plan.',
      docs: "Unknown values are left out of a plan; the VM or disk that needs one is left out of the figures rather than guessed. Set the value in the configuration to see its figures. In `.tf` files, what Terraform resolves only at plan (function calls, other resources' attributes, data sources, module outputs, an unknown `count` or `for_each`, `dynamic` blocks of what storage-perf reads) is said to be unknown until plan: run on the plan JSON for it. A module call whose registry or git source `terraform init` has not downloaded (no record in `.terraform/modules/modules.json`, or one of another source), whose folder has no `.tf` file, or which closes a cycle is not read: one finding on its `source` says so, and what to do. A VM whose zone or provider region is written but not known has its costs left out, said here, rather than priced in another region.",
    },
    'terraform-undeclared-reference': {
      severity: 'error',
      summary: 'A VM attaches a disk through a reference to a resource the configuration does not declare.',
      docs: 'Terraform refuses such a configuration (`Reference to undeclared resource`): declare the resource, or fix the reference. The disk is left out of the figures.',
    },
    'terraform-other-provider': {
      severity: 'information',
      summary: "A VM of another provider than the plan's first VM is not evaluated.",
      docs: 'One analysis reads one provider; split the configuration, or evaluate the other provider with a spec of its own.',
    },
    'terraform-shared-disk': {
      severity: 'warning',
      summary: 'A disk is attached to several VMs of the plan.',
      docs: "Each VM's figures assume it alone uses the disk's limits, and the disk's price is counted on each VM: the total is too high by the copies.",
    },
    'terraform-template': {
      severity: 'information',
      summary: "An instance template has one instance's figures and is priced as the instances its groups run.",
      docs: "A template's VM is evaluated as one instance of it (the figures each instance of a group gets). A template alone runs nothing and costs nothing; a managed instance group that runs it (`google_compute_instance_group_manager`, the regional one) runs its `target_size` instances, split between its `version` blocks by their `target_size { fixed }`, and the template's machine and disks are priced as that many, in the group's region. Where the number is not known before apply (a size from a variable without a default, a percent share) or an autoscaler sets it by load between its `min_replicas` and `max_replicas`, those instances are left out and the total is partial: the message says which and the range, never a guess. On AWS, an `aws_launch_template` (or an `aws_launch_configuration`) is run by an `aws_autoscaling_group` that names it (its `launch_template` block, a mixed instances policy's specification, or `launch_configuration`): `desired_capacity` instances, else `min_size` (AWS's default); a group with an `aws_autoscaling_policy` scales between `min_size` and `max_size`, and one whose mixed instances policy overrides the instance type runs others too: both are said, not priced.",
    },
    'terraform-unattached-disk': {
      severity: 'information',
      summary: 'A disk of the configuration is attached to no VM by a reference storage-perf follows.',
      docs: "A disk has figures only on a VM; one attached through a reference the plan cannot follow (a module variable) is reported here too. It is still paid for: a disk of the configuration's provider is priced apart, in the region of its own zone, listed in `evaluate`'s report under `unattached_disks` (the table: 'Disks attached to no VM'), and part of the file's total, never of a VM's; `diff` shows it added, removed or changed. One that cannot be priced (a size known only after apply) leaves the file's total partial, naming it.",
    },
    'terraform-sidecar-plan': {
      severity: 'error',
      summary: 'The plan a workload sidecar names cannot be read or used.',
      docs: 'A sidecar (`terraform: plan.json`) names a plan file relative to itself; the plan must be readable and hold VMs. Lint the plan itself to see where it goes wrong. A plan that is not a regular file (a named pipe, a device), is larger than 64 MiB, or whose real path (links resolved) is outside the repository or workspace is refused, and the message says which (see docs/robustness.md; `--follow-links` reads through links out of it).',
    },
    'terraform-file-refused': {
      severity: 'error',
      summary: "A module's .tf or .tfvars file, or a local module's folder, is refused by the reader.",
      docs: "The files of a module are read only when they are regular files of at most 64 MiB whose real path (links resolved) is inside the repository or workspace: a named pipe would block, a device or a procfs file never ends, and a link may point at files of another project. A module's source (local, or the folder `terraform init` recorded) is read anywhere inside the repository, and refused when it is outside it. The finding is on the `source` that named the folder (or the module's first line) and says which rule refused it; the module's resources in that file are not read. `--follow-links` reads through links out of the repository, and `--root DIR` names the folder sources are read in (see docs/terraform.md and docs/robustness.md).",
    },
    'terraform-unknown-address': {
      severity: 'error',
      summary: "A sidecar's workload names a VM the plan does not have.",
      docs: 'Each workload names its VM by Terraform address (`vm: module.db.google_compute_instance.primary`); the message gives the nearest address of the plan.',
    },
    'terraform-var-file': {
      severity: 'error',
      summary: 'A variable file given with `--var-file` (or the `terraformVarFiles` setting) cannot be read.',
      docs: "The finding names the file and why it cannot be read; the module's files are read without it, so variables it would set keep their defaults or are unknown. The CLI refuses a missing `--var-file` before it reads anything (exit 2); this finding is what an editor shows for the setting.",
    },
    'terraform-module-size': {
      severity: 'error',
      summary: "A file of the module is left out: the module's .tf files would take more than the limit of bytes a module read takes in.",
      docs: 'A module read takes in at most 32 MiB of `.tf` and `.tf.json` files besides the open one (`MAX_MODULE_BYTES`): a large `.tf.json` takes about 60 bytes of memory per byte. The finding names the file left out; its resources are not read. Run on the plan JSON (`terraform show -json`) for such a module.',
    },
    'terraform-no-instances': {
      severity: 'information',
      summary: 'The plan has no VM resource that storage-perf reads, or none whose figures it can read yet.',
      docs: 'Read: the instance, template and group types of docs/terraform.md (Google, AWS, Yandex), with their disks. Other resource types are counted and ignored. Where the configuration declares VMs but none can be read yet (a machine type or a count not known), the finding names them instead.',
    },
  },
};
