/**
 * Ctrl-C and SIGTERM during a long run: the first signal aborts the run cleanly (running steps are killed
 * with their process trees, workspaces removed, finished cases kept) so it can be resumed; a second signal
 * exits at once.
 */
export function interruptController(onFirst: (signal: string) => void): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    onFirst(signal);
    controller.abort();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
