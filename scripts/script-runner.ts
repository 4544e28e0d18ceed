// Runs a script's body and turns any failure into one or two clear lines and a non-zero exit
// code. It exits explicitly: the WebAssembly schema engine keeps a timer alive for ~10 s after use.
import { StartupError } from '../src/database/startup-checks.js';

export async function runScript(body: () => Promise<number | void>): Promise<never> {
  let code: number;
  try {
    const result = await body();
    code = typeof result === 'number' ? result : 0;
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(`Failed: ${error.message}`);
      console.error(`Fix: ${error.fix}`);
    } else {
      console.error(error instanceof Error ? error.message : String(error));
    }
    if (process.env.DEBUG) console.error(error);
    code = 1;
  }
  // Output to a pipe (execFile, `| tee`) may still be queued: exiting now would cut a long listing
  // (a dry run's diff) short, so exit once both streams have written what they hold.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}
