/** Polls until `check` passes or `ms` ran out; then the last failure is thrown. */
export async function eventually(check: () => Promise<void> | void, ms = 5000): Promise<void> {
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
