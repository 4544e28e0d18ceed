/** Retries an assertion until it passes or `timeoutMs` runs out (then rethrows its last failure). */
export async function eventually(assertion: () => Promise<void>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
