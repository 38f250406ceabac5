/**
 * The number of instances a group is given (`desired_capacity`, `target_size`, `instances`), read as its provider
 * takes it: a whole number, 0 or more, and for an AWS Auto Scaling group from `min_size` to `max_size` ("The
 * desired capacity must be equal to or greater than the minimum size of the group and less than or equal to the
 * maximum size of the group": CreateAutoScalingGroup, Amazon EC2 Auto Scaling API Reference,
 * https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_CreateAutoScalingGroup.html). A value that is
 * written and refused is said with its value and the rule, never as unknown and never counted; one that is not
 * known here is said as known only after apply.
 */
import type { Node } from 'jsonc-parser';
import { numberText } from './hcl-convert';
import { converted } from './json';

/** The number, or what to say instead of it (after "<group>'s instances: "). */
export type GroupSize = { instances: number } | { unknown: string };

/** What the group's provider takes besides a whole number of 0 or more: its name, and the range of the size. */
export interface SizeRule {
  provider: string;
  min?: number;
  max?: number;
}

export function groupSize(n: Node | undefined, name: string, rule: SizeRule): GroupSize {
  const v = converted(n, 'number');
  if (!v) return { unknown: `${name} is known only after apply` };
  if ('refused' in v) return { unknown: `${name} ${v.refused}, refused by Terraform` };
  const size = v.value as number;
  if (!Number.isInteger(size) || size < 0)
    return { unknown: `${name} ${numberText(size)} is not a whole number of 0 or more, refused by ${rule.provider}` };
  const { min, max } = rule;
  if ((min !== undefined && size < min) || (max !== undefined && size > max)) {
    const range =
      min !== undefined && max !== undefined
        ? `from min_size ${min} to max_size ${max}`
        : min !== undefined
          ? `at least min_size ${min}`
          : `at most max_size ${max}`;
    return { unknown: `${name} ${numberText(size)} is not ${range}, refused by ${rule.provider}` };
  }
  return { instances: size };
}
