/** Polls until `check` passes (and gives what it returns) or `ms` ran out; then the last failure is thrown. */
export async function eventually<T>(check: () => Promise<T> | T, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
