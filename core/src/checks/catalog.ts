/**
 * Catalog look-ups: the edition, the region, the machine and the disk types a spec names must exist in the
 * catalog. The analysis resolves the edition and region here first: without them nothing else is checked.
 */
import { resolveMachine, type Catalog } from '../catalog';
import type { FixType } from '../diagnostics';
import { nearest, suggest } from '../document/suggest';
import type { CatalogChoice, CheckModule, SpecContext, VmContext } from './types';
import { INSTANCE_STORE } from './instance-store';

export const catalog: CheckModule = {
  id: 'catalog',
  title: 'Catalog look-ups',
  about: "The catalog edition, region, machine and disk types a spec names, looked up in the catalog (built-in or a user's file).",
  codes: {
    'unknown-catalog': {
      severity: 'error',
      summary: 'The catalog edition does not exist.',
      docs: "The fix offers each edition of the spec's provider; nothing else is checked until the edition exists.",
    },
    'catalog-provider-mismatch': {
      severity: 'error',
      summary: 'The catalog edition is for another provider.',
      docs: "Name an edition of the spec's `provider`, or leave `catalog` out for the newest one.",
    },
    'unknown-region': {
      severity: 'warning',
      summary: 'The region is not one the catalog knows: no prices for it.',
      docs: 'Costs are left out; the fix offers the regions the edition prices (a near spelling first). A region the provider offers but the edition does not price is `unpriced-region` instead.',
    },
    'unpriced-region': {
      severity: 'information',
      summary: 'The region is real, but the catalog has no prices for it.',
      docs: "The edition lists the provider's regions (`other_regions`, with its source) apart from those it prices. A spec or a Terraform VM in one of the others is a correct configuration: its figures are given, its costs left out and the totals marked partial, and only information says so, so that `--fail-on warning` does not fail it. A catalog file of your own (`--catalog-file`) can price it.",
    },
    'unknown-machine-type': {
      severity: 'error',
      summary: "The machine type is not in the catalog, or breaks its series' naming or custom-machine rules.",
      docs:
        'Without a known machine no per-VM limit can apply. A name is read as written: in lower case, as providers ' +
        'write them (`N2-STANDARD-8` is refused, with a fix to `n2-standard-8`), and a suffix the series does not ' +
        'offer (`n2-standard-8-foo`) is not dropped, and a custom type (`n2-custom-6-16384`) must follow the ' +
        "series' vCPU and memory rules. The fix offers the closest real type: the nearest vCPU count, memory " +
        'rounded into range, or the name without the unknown suffix.',
    },
    'unmodelled-machine-type': {
      severity: 'warning',
      summary: 'The edition has no limits for this instance type: the VM has no figures.',
      docs:
        "A name in AWS's `<family>.<size>` form that the edition does not model: a family it does not cover (`t1.micro`, " +
        '`m8g.large`, or one its `other_series` names) or a size its family table lacks (`m7g.24xlarge`, with the sizes it ' +
        'has). The VM gets no figures and no price rather than the limits of another family or size (t4g.small is not ' +
        't3.small: another CPU and another EBS limit). Use a modelled type to see figures, or measure it with fio. A size ' +
        'not written as AWS writes sizes (`m6i.2xlarg`) is `unknown-machine-type`, with its fix.',
    },
    'unknown-series': {
      severity: 'error',
      summary: 'The machine series is not in the catalog.',
      docs: 'The message lists the series the edition knows. A series in capitals (`N2`) is refused like a machine type, with a fix to its lower-case name.',
    },
    'vcpus-not-offered': {
      severity: 'error',
      summary: 'The series does not offer this vCPU count.',
      docs: 'The message lists the vCPU counts the series comes with; the fix sets the nearest one.',
      fixType: 'sizing',
    },
    'machine-conflict': {
      severity: 'error',
      summary: 'machine_type and series/vcpus disagree.',
      docs: '`machine_type` wins; the fix removes the disagreeing key.',
    },
    'unmodelled-disk-type': {
      severity: 'information',
      summary: 'The provider sells this disk type, but the edition does not model it: the disk has no figures and no price.',
      docs:
        "A type named in the edition's `other_disk_types`: one the provider sells that the edition has no figures for " +
        '(no built-in edition names one now: aws-2025 models EBS Magnetic, `standard`, with its figures as upper bounds, ' +
        'see `disk-figures-range`). The disk is listed without figures or price, and every total it is part of says it ' +
        'is partial; workloads on it are not evaluated.',
    },
    'unknown-disk-type': {
      severity: 'error',
      summary: 'The disk type is not in the catalog for this provider.',
      docs: "The message lists the edition's disk types.",
    },
  },
  vm: (ctx) => {
    machine(ctx);
    for (const d of ctx.vm.disks) {
      if (!d.type || ctx.catalog.disk_types[d.type]) continue;
      // Instance store is the machine's own: its check (./instance-store) reads the catalog's table.
      if (d.type === INSTANCE_STORE && ctx.catalog.instance_store) continue;
      const other = ctx.catalog.other_disk_types?.types;
      if (other && Object.hasOwn(other, d.type)) {
        const at = `${d.path}/type`;
        const why = `${d.type} is ${other[d.type]}; ${ctx.catalog.edition} does not model it`;
        ctx.report('unmodelled-disk-type', `disk '${d.name}': ${why}, so it has no figures or price, and totals are partial`, ctx.at(at), {
          path: at,
        });
        continue;
      }
      const known = Object.keys(ctx.catalog.disk_types);
      // Types as near as each other (network-sdd: network-ssd, network-hdd) are all offered, none preferred.
      const near = nearest(d.type, known);
      const path = `${d.path}/type`;
      ctx.report(
        'unknown-disk-type',
        near.length
          ? `'${d.type}' is not a disk type of ${ctx.catalog.edition}; did you mean ${near.join(' or ')}?`
          : `'${d.type}' is not a disk type of ${ctx.catalog.edition}; use one of: ${known.join(', ')}`,
        ctx.at(path),
        {
          path,
          fixes: near.map((n) => ({ kind: 'set-value' as const, path, value: n, title: `Use ${n}`, preferred: near.length === 1 })),
        },
      );
    }
  },
};

/**
 * The edition and region a spec is checked against: the spec's own, else the editor's setting, else the
 * provider's newest edition and the edition's default region. Undefined when no edition applies.
 */
export function resolveCatalog(ctx: SpecContext, choice: CatalogChoice): { catalog: Catalog; region: string } | undefined {
  const spec = ctx.spec;
  if (!spec?.provider) return undefined;
  const { registry } = choice;
  let c: Catalog | undefined;
  if (spec.catalog !== undefined) {
    c = registry.get(spec.catalog);
    if (!c) {
      const known = registry.forProvider(spec.provider).map((x) => x.edition);
      ctx.report(
        'unknown-catalog',
        `no catalog edition '${spec.catalog}'; for ${spec.provider}: ${known.join(', ') || 'none'}`,
        ctx.at('/catalog'),
        {
          path: '/catalog',
          fixes: known.map((e, i) => ({
            kind: 'set-value',
            path: '/catalog',
            value: e,
            title: `Use catalog ${e}`,
            preferred: i === known.length - 1,
          })),
        },
      );
      return undefined;
    }
    // A provider no edition is for is the schema's finding (with its did-you-mean); a mismatch would repeat it.
    if (c.provider !== spec.provider && registry.forProvider(spec.provider).length === 0) return undefined;
    if (c.provider !== spec.provider) {
      ctx.report('catalog-provider-mismatch', `catalog ${c.edition} is for ${c.provider}, not ${spec.provider}`, ctx.at('/catalog'), {
        path: '/catalog',
      });
      return undefined;
    }
  } else {
    const preferred = choice.defaultCatalog ? registry.get(choice.defaultCatalog) : undefined;
    c = preferred && preferred.provider === spec.provider ? preferred : registry.defaultFor(spec.provider);
    if (!c) return undefined; // the schema already reports an unknown provider
  }
  return { catalog: c, region: region(ctx, c, choice.defaultRegion) };
}

function region(ctx: SpecContext, c: Catalog, defaultRegion: string | undefined): string {
  const r = ctx.spec?.region ?? defaultRegion ?? c.default_region;
  if (c.regions.includes(r)) return r;
  if (ctx.spec?.region === undefined) return c.default_region;
  if (c.other_regions?.regions.includes(r)) {
    ctx.report('unpriced-region', unpricedText(c, r, 'costs are left out'), ctx.at('/region'));
    return r;
  }
  // A near spelling first (europe-west-4, us-central-1): that fix is the preferred one; without one, none is.
  const near = suggest(r, c.regions);
  const listed = near ? [near, ...c.regions.filter((x) => x !== near)] : c.regions;
  ctx.report(
    'unknown-region',
    near
      ? `${c.edition} has no region '${r}'; did you mean ${near}? Costs are left out`
      : `${c.edition} has no prices for region '${r}' (it has ${regionList(c.regions)}); costs are left out`,
    ctx.at('/region'),
    {
      path: '/region',
      fixes: listed.map((x) => ({ kind: 'set-value', path: '/region', value: x, title: `Price in ${x}`, preferred: x === near })),
    },
  );
  return r;
}

/**
 * A machine name fixed with the same numbers (n2-standrd-8 → n2-standard-8, a dropped bogus suffix) corrects a
 * spelling; other numbers (n2-standard-7 → n2-standard-8, custom memory rounded) change the machine.
 */
function machineFixType(written: string, fixed: string): FixType {
  const numbers = (s: string) => (s.match(/\d+/g) ?? []).join('-');
  return numbers(written) === numbers(fixed) ? 'problem' : 'sizing';
}

/** A real region the edition does not price: what the finding says. */
export function unpricedText(c: Catalog, region: string, consequence: string): string {
  const article = /^[aeiou]/.test(c.provider) ? 'an' : 'a';
  return `${c.edition} has no prices for ${region}, ${article} ${c.provider} region (it prices ${regionList(c.regions)}): ${consequence}`;
}

/** A short list for a message: the fixes hold them all. */
function regionList(regions: string[]): string {
  return regions.length <= 6 ? regions.join(', ') : `${regions.slice(0, 5).join(', ')} and ${regions.length - 5} more`;
}

function machine(ctx: VmContext): void {
  const { vm } = ctx;
  if (vm.machine_type === undefined && vm.series === undefined) return; // the parser reports missing-machine
  const r = resolveMachine(ctx.catalog, vm);
  if (!r.ok) {
    const path = `${vm.path}/${r.on}`;
    const fix = r.fix;
    ctx.report(r.code, r.message, ctx.at(path) ?? ctx.key(`${vm.path}/name`), {
      path,
      fixes:
        fix === undefined
          ? []
          : [
              {
                kind: 'set-value',
                path,
                value: fix,
                title: r.on === 'vcpus' ? `Use ${fix} vCPUs` : `Use ${fix}`,
                preferred: true,
                ...(r.code === 'unknown-machine-type' ? { type: machineFixType(String(vm.machine_type), String(fix)) } : {}),
              },
            ],
    });
    return;
  }
  const m = r.machine;
  if (vm.machine_type === undefined || (vm.series === undefined && vm.vcpus === undefined)) return;
  if ((vm.series !== undefined && vm.series.toLowerCase() !== m.series) || (vm.vcpus !== undefined && vm.vcpus !== m.vcpus)) {
    const path = vm.vcpus !== undefined && vm.vcpus !== m.vcpus ? `${vm.path}/vcpus` : `${vm.path}/series`;
    ctx.report(
      'machine-conflict',
      `${m.name} is ${m.series} with ${m.vcpus} vCPUs; machine_type wins — remove series/vcpus or make them agree`,
      ctx.at(path),
      {
        path,
        fixes: [{ kind: 'remove-key', path, title: `Remove ${path.split('/').pop()}`, preferred: true }],
      },
    );
  }
}
