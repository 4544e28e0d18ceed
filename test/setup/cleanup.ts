/**
 * Runs cleanup steps one after another; a failing step is reported and does not stop the rest,
 * so one broken process never leaves databases or servers behind.
 */
export function cleanupSteps(label: string): (what: string, fn: () => Promise<unknown>) => Promise<void> {
  return async (what, fn) => {
    try {
      await fn();
    } catch (error) {
      console.error(`${label} cleanup: ${what} failed: ${(error as Error).message}`);
    }
  };
}
