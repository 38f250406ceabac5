/**
 * azurerm resources as the spec's VMs and disks (core/src/terraform/azure.ts, azure-groups.ts): a VM's `size` and
 * `os_disk`, managed disks joined by their data disk attachments (whose caching is the disk's), a scale set as one
 * instance priced as its `instances`, storage account types as the spec's disk types, `location` as the region.
 * Provisioned IOPS and MB/s are read only for Premium SSD v2 and Ultra Disk (the provider computes them for the
 * others: https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/managed_disk).
 */
import * as assert from 'node:assert/strict';
import { joinTfFiles, terraformFilesFrontEnd } from '../../core/src';
import type { YamlNode } from '../../core/src/document/yaml-nodes';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { loadTfParser, runTf } from '../fixtures/tf-analysis';

let parse: Awaited<ReturnType<typeof loadHclParser>>;
before(async () => {
  parse = await loadHclParser();
});

/** The spec the .tf front end builds of `main`, as pointer → value, and its findings. */
function built(main: string) {
  const files = [{ path: 'main.tf', text: main }];
  const parsed = terraformFilesFrontEnd(parse, files)(joinTfFiles(files).text);
  const values = new Map<string, unknown>();
  const walk = (n: YamlNode | undefined, p: string): void => {
    if (!n) return;
    if (n.kind === 'scalar') values.set(p, n.value);
    else if (n.kind === 'map') n.entries.forEach((e) => walk(e.value, `${p}/${e.key.kind === 'scalar' ? String(e.key.value) : '?'}`));
    else if (n.kind === 'seq') n.items.forEach((it, i) => walk(it, `${p}/${i}`));
  };
  walk(parsed.tree.root, '');
  return { values, findings: parsed.diagnostics.map((d) => `${d.code}: ${d.message}`) };
}

const VM = `
resource "azurerm_linux_virtual_machine" "db" {
  name                  = "db"
  location              = "East US"
  size                  = "Standard_D8s_v3"
  resource_group_name   = "rg"
  admin_username        = "ops"
  network_interface_ids = []
  os_disk {
    caching              = "ReadWrite"
    storage_account_type = "Premium_LRS"
    disk_size_gb         = 128
  }
}

resource "azurerm_managed_disk" "data" {
  count                = 3
  name                 = "data-\${count.index}"
  location             = "eastus"
  resource_group_name  = "rg"
  storage_account_type = "Premium_LRS"
  create_option        = "Empty"
  disk_size_gb         = 1024
  disk_iops_read_write = 5000
}

resource "azurerm_virtual_machine_data_disk_attachment" "data" {
  count              = 3
  managed_disk_id    = azurerm_managed_disk.data[count.index].id
  virtual_machine_id = azurerm_linux_virtual_machine.db.id
  lun                = count.index
  caching            = "ReadOnly"
}
`;

describe('azurerm resources as VMs and disks', () => {
  it('reads a VM: its size, its region from a display name, its OS disk and the disks attached to it with their caching', () => {
    const { values, findings } = built(VM);
    assert.equal(values.get('/provider'), 'azure');
    assert.equal(values.get('/vms/0/machine_type'), 'Standard_D8s_v3');
    assert.equal(values.get('/vms/0/region'), 'eastus', '"East US" is the region eastus');
    assert.equal(values.get('/vms/0/disks/0/role'), 'os');
    assert.equal(values.get('/vms/0/disks/0/type'), 'premium-ssd');
    assert.equal(values.get('/vms/0/disks/0/size'), 128);
    assert.equal(values.get('/vms/0/disks/0/caching'), 'read-write');
    for (const i of [1, 2, 3]) {
      assert.equal(values.get(`/vms/0/disks/${i}/name`), `azurerm_managed_disk.data[${i - 1}]`);
      assert.equal(values.get(`/vms/0/disks/${i}/role`), 'data');
      assert.equal(values.get(`/vms/0/disks/${i}/caching`), 'read-only', "the attachment's caching");
      assert.equal(values.get(`/vms/0/disks/${i}/size`), 1024);
      // Premium SSD's IOPS are its tier's: a value written for it is not a setting.
      assert.equal(values.has(`/vms/0/disks/${i}/provisioned_iops`), false);
    }
    assert.deepEqual(findings, []);
  });

  it('reads Premium SSD v2 and Ultra provisioning in MB/s, bursting, performance plus and tiers of a managed disk', () => {
    const { values } = built(`
resource "azurerm_managed_disk" "log" {
  name                 = "log"
  location             = "westeurope"
  storage_account_type = "PremiumV2_LRS"
  create_option        = "Empty"
  disk_size_gb         = 512
  disk_iops_read_write = 40000
  disk_mbps_read_write = 600
}
resource "azurerm_managed_disk" "big" {
  name                       = "big"
  location                   = "westeurope"
  storage_account_type       = "Premium_ZRS"
  create_option              = "Empty"
  disk_size_gb               = 1024
  tier                       = "P50"
  on_demand_bursting_enabled = true
  performance_plus_enabled   = true
}
`);
    assert.equal(values.get('/unattached/0/type'), 'premium-ssd-v2');
    assert.equal(values.get('/unattached/0/provisioned_iops'), 40000);
    assert.equal(values.get('/unattached/0/provisioned_throughput'), '600MB/s', "Azure's MB/s, 10^6 bytes");
    assert.equal(values.get('/unattached/1/type'), 'premium-ssd');
    assert.equal(values.get('/unattached/1/redundancy'), 'zrs');
    assert.equal(values.get('/unattached/1/tier'), 'P50');
    assert.equal(values.get('/unattached/1/bursting'), 'on-demand');
    assert.equal(values.get('/unattached/1/performance_plus'), true);
  });

  it('reads a scale set as one instance priced as its instances, and an autoscale setting as a range, never a guess', () => {
    const SET = `
resource "azurerm_linux_virtual_machine_scale_set" "web" {
  name      = "web"
  location  = "westeurope"
  sku       = "Standard_D4s_v5"
  instances = 4
  os_disk {
    caching              = "ReadOnly"
    storage_account_type = "StandardSSD_LRS"
    disk_size_gb         = 64
  }
  data_disk {
    lun                  = 0
    caching              = "None"
    storage_account_type = "Premium_LRS"
    disk_size_gb         = 256
  }
}
`;
    const fixed = built(SET);
    assert.equal(fixed.values.get('/vms/0/machine_type'), 'Standard_D4s_v5');
    assert.equal(fixed.values.get('/vms/0/disks/1/name'), 'azurerm_linux_virtual_machine_scale_set.web.data_disk[0]');
    assert.equal(fixed.values.get('/vms/0/disks/1/caching'), 'none');
    assert.deepEqual(fixed.findings, [
      "terraform-template: azurerm_linux_virtual_machine_scale_set.web: one instance's figures; priced as the 4 instances azurerm_linux_virtual_machine_scale_set.web runs",
    ]);
    const scaled = built(`${SET}
resource "azurerm_monitor_autoscale_setting" "web" {
  name               = "web"
  location           = "westeurope"
  target_resource_id = azurerm_linux_virtual_machine_scale_set.web.id
  profile {
    name = "default"
    capacity {
      default = 2
      minimum = 2
      maximum = 10
    }
  }
}
`);
    assert.deepEqual(scaled.findings, [
      "terraform-template: azurerm_linux_virtual_machine_scale_set.web: one instance's figures; azurerm_monitor_autoscale_setting.web scales azurerm_linux_virtual_machine_scale_set.web to 2–10 instances by load, not in the total",
    ]);
  });

  it('says an OS disk without a size is its image’s and leaves it out, never a default', () => {
    const { values, findings } = built(VM.replace('    disk_size_gb         = 128\n', ''));
    assert.equal(values.has('/vms/0/disks/0/size'), false);
    assert.match(String(values.get('/vms/0/disks/0/left_out')), /disk_size_gb is unknown until plan \(the image's size applies\)/);
    assert.deepEqual(findings, [
      "terraform-unknown-value: azurerm_linux_virtual_machine.db.os_disk's disk_size_gb is not set here (the image's size applies): set it to see its figures",
    ]);
  });

  it('says a data disk attachment whose disk is not in the configuration, on its managed_disk_id', () => {
    const { findings } = built(VM.replace('azurerm_managed_disk.data[count.index].id', 'var.disk_id'));
    const unknown = findings.filter((f) =>
      /data\[\d\]'s disk is unknown until plan: run on the plan JSON, or not created in this plan/.test(f),
    );
    assert.equal(unknown.length, 3, findings.join('\n'));
  });
});

describe('azurerm resources evaluated in the Azure edition', () => {
  before(loadTfParser);

  // Microsoft's VM-level capping example: three P30 disks (5,000 IOPS each) on a Standard_D8s_v3, whose uncached
  // limit is 12,800 IOPS ("The application is capped by the virtual machine limits and must allocate the allotted
  // 12,800 IOPS": https://learn.microsoft.com/azure/virtual-machines/disks-performance).
  it('reproduces the VM-level cap of three P30 disks on a Standard_D8s_v3, stated once for the disks it binds', () => {
    const { r } = runTf(
      VM.replace(
        'storage_account_type = "Premium_LRS"\n    disk_size_gb         = 128',
        'storage_account_type = "Premium_LRS"\n    disk_size_gb         = 32',
      ),
    );
    const vm = r.vms[0];
    const data = vm.disks.filter((d) => d.name.startsWith('azurerm_managed_disk.data'));
    assert.deepEqual(
      data.map((d) => [d.read_iops, d.limited_by?.read_iops]),
      [
        [5000, 'size'],
        [5000, 'size'],
        [5000, 'size'],
      ],
      'each disk alone delivers its own 5,000 IOPS',
    );
    const shared = vm.shared_limits.find((s) => s.metric === 'read_iops');
    assert.equal(shared?.value, 12800);
    assert.equal(shared?.limited_by, 'vm');
    assert.equal(vm.region, 'eastus');
  });

  it('says a region the edition does not price with its article: an azure region', () => {
    const { r } = runTf(VM.replace('location              = "East US"', 'location              = "West Europe"'));
    assert.ok(
      r.diagnostics.some(
        (d) => d.code === 'unpriced-region' && /has no prices for westeurope, an azure region \(it prices eastus\)/.test(d.message),
      ),
      r.diagnostics.map((d) => d.message).join('\n'),
    );
  });

  it('prices a disk attached to no VM in its own location, not in a VM’s region', () => {
    const { r } = runTf(`${VM.replace('location              = "East US"', 'location              = "West Europe"')}
resource "azurerm_managed_disk" "log" {
  name                 = "log"
  location             = "East US"
  zone                 = "1"
  storage_account_type = "PremiumV2_LRS"
  create_option        = "Empty"
  disk_size_gb         = 512
}
`);
    assert.equal(r.vms[0].region, 'westeurope');
    assert.deepEqual(
      r.unattached_disks?.map((d) => [d.name, d.region]),
      [['azurerm_managed_disk.log', 'eastus']],
    );
  });

  it('leaves a zone-redundant disk’s price out, never the locally redundant one’s', () => {
    const { r } = runTf(
      VM.replace(/storage_account_type = "Premium_LRS"\n {2}create_option/, 'storage_account_type = "Premium_ZRS"\n  create_option'),
    );
    const disks = r.vms[0].disks.filter((d) => d.name.startsWith('azurerm_managed_disk.data'));
    assert.deepEqual(
      disks.map((d) => [d.read_iops, d.monthly_cost]),
      [
        [5000, null],
        [5000, null],
        [5000, null],
      ],
    );
    assert.equal(r.monthly_cost_complete, false);
    assert.ok(r.diagnostics.some((d) => d.code === 'price-unknown' && /zone-redundant \(ZRS\)/.test(d.message)));
  });

  // The size of the azurerm provider's own examples: Standard_F2 (F-series, "Premium Storage: Not Supported",
  // https://learn.microsoft.com/en-us/azure/virtual-machines/sizes-previous-gen), with a Standard_LRS OS disk.
  it('gives a Standard_F2 VM figures: its disks’ own, marked as upper bounds (the size publishes no disk limit)', () => {
    const { r } = runTf(
      VM.replace('"Standard_D8s_v3"', '"Standard_F2"')
        .replace(
          'caching              = "ReadWrite"\n    storage_account_type = "Premium_LRS"',
          'caching              = "ReadWrite"\n    storage_account_type = "Standard_LRS"',
        )
        .replace(/storage_account_type = "Premium_LRS"\n {2}create_option/, 'storage_account_type = "StandardSSD_LRS"\n  create_option'),
    );
    const vm = r.vms[0];
    assert.equal(vm.machine_type, 'Standard_F2');
    assert.deepEqual(
      vm.disks.map((d) => [d.type, d.read_iops, d.vm_limit_known]),
      [
        ['standard-hdd', 500, false], // S10: 500 IOPS
        ['standard-ssd', 500, false], // E30: 500 IOPS
        ['standard-ssd', 500, false],
        ['standard-ssd', 500, false],
      ],
    );
    assert.ok(!r.diagnostics.some((d) => d.code === 'unknown-machine-type'));
    assert.ok(r.diagnostics.some((d) => d.code === 'machine-limits-unknown'));
    // Premium SSD on it is refused, on the storage account type.
    const premium = runTf(VM.replace('"Standard_D8s_v3"', '"Standard_F2"')).r;
    assert.ok(
      premium.diagnostics.some((d) => d.code === 'disk-type-not-on-series' && /f machines cannot attach premium-ssd/.test(d.message)),
    );
  });
});
