/**
 * `evaluate` on a Terraform folder: the module's line names the resources that run VMs of which Terraform creates
 * none with these values (a `count` or `for_each` of 0), in the singular or the plural.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../fixtures/lint-cli';

const VM = `
  ami           = "ami-1"
  instance_type = "m5.large"
  availability_zone = "us-east-1a"
  root_block_device {
    volume_type = "gp3"
    volume_size = 20
  }`;

describe('evaluate: the module line says the resources created none of', () => {
  const run = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-none-created-'));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      return spawnSync(process.execPath, [BIN, 'evaluate', dir], { encoding: 'utf8' }).stdout;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('one resource in the singular, several in the plural, each by address', () => {
    const one = run({ 'main.tf': `resource "aws_instance" "off" {\n  count = 0\n${VM}\n}\nresource "aws_instance" "on" {\n${VM}\n}\n` });
    assert.match(one, /; 1 that runs VMs creates none with these values \(a count or for_each of 0: aws_instance\.off\)/);
    const two = run({
      'main.tf': `resource "aws_instance" "a" {\n  count = 0\n${VM}\n}\nresource "aws_instance" "b" {\n  for_each = {}\n${VM}\n}\n`,
    });
    assert.match(two, /; 2 that run VMs create none with these values \(a count or for_each of 0: aws_instance\.a, aws_instance\.b\)/);
  });
});
