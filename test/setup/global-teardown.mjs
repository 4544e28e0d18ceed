export default async function globalTeardown() {
  await globalThis.__GPU_COST_TEST_SERVER__?.cleanup();
}
