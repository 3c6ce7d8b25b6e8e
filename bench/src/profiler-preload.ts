import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

// Loaded into a process the benchmark profiles (`node --import ./profiler-preload.ts`): SIGUSR2 starts V8's sampling
// profiler, the next SIGUSR2 stops it and writes `<pid>.cpuprofile` into BENCH_PROFILE_DIR, so the profile covers the
// measured requests only, not the start or the preparation.
const dir = process.env['BENCH_PROFILE_DIR'];
if (dir === undefined) throw new Error('BENCH_PROFILE_DIR is not set');
const session = new Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  const toggle = async (): Promise<void> => {
    if (!running) {
      running = true;
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await session.post('Profiler.stop');
    // Written aside then renamed: the benchmark reads the file as soon as it appears.
    const file = join(dir, `${process.pid}.cpuprofile`);
    writeFileSync(`${file}.partial`, JSON.stringify(profile));
    renameSync(`${file}.partial`, file);
  };
  toggle().catch((error: unknown) => process.stderr.write(`profiler: ${String(error)}\n`));
});
