/** The disk controller a machine runs its disks through (Azure Ebsv5: NVMe and SCSI have their own limits). */
import type { Machine } from '../catalog';

const withControllers = new WeakMap<Machine, Map<string, Machine>>();
/**
 * The machine with the disk controller whose limits apply (Azure Ebsv5: NVMe and SCSI differ): the spec's, where the
 * size offers it, else the size's own (NVMe for the sizes offered with NVMe only, else the series' default).
 */
export function withController(m: Machine, asked: 'scsi' | 'nvme' | undefined): Machine {
  const ctl = m.info.controllers;
  if (!ctl) return m;
  const own = ctl.nvme_only?.includes(m.name) ? 'nvme' : ctl.default;
  const controller = asked && ctl.offered.includes(asked) && !ctl.nvme_only?.includes(m.name) ? asked : own;
  if (controller === m.controller) return m;
  let byController = withControllers.get(m);
  if (!byController) withControllers.set(m, (byController = new Map()));
  let out = byController.get(controller);
  if (!out) byController.set(controller, (out = { ...m, controller }));
  return out;
}
