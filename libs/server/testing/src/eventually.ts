/** Poll `probe` until it returns without throwing, or fail with its last error after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms: ${(lastError as Error)?.message ?? lastError}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
