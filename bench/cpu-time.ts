/**
 * Loaded with `node -r` into a measured process (./terraform-time's `--cpu`): at its exit, writes the process's CPU
 * time (user and system, all its threads: V8's compiler and garbage collector included), in ms, to file
 * descriptor 3. On a loaded machine a process waits for a CPU longer; the CPU time it uses varies far less.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  try {
    writeSync(3, `${(user + system) / 1000}\n`);
  } catch {
    // Not measured: no descriptor 3.
  }
});
