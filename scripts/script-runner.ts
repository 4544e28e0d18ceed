// Runs a script's body and turns any failure into one clear line and a non-zero exit code.
export async function runScript(body: () => Promise<number | void>): Promise<void> {
  try {
    const code = await body();
    process.exitCode = typeof code === 'number' ? code : 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    if (process.env.DEBUG) console.error(error);
    process.exitCode = 1;
  }
}
