// Runs a script's body and turns any failure into one clear line and a non-zero exit code.
// It exits explicitly: the WebAssembly schema engine keeps a timer alive for ~10 s after use.
export async function runScript(body: () => Promise<number | void>): Promise<never> {
  let code = 0;
  try {
    const result = await body();
    code = typeof result === 'number' ? result : 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    if (process.env.DEBUG) console.error(error);
    code = 1;
  }
  process.exit(code);
}
