// SIGINT/SIGTERM → one orderly shutdown. With a handler installed Node no longer exits on these
// signals by itself: `onDone` decides (normally `process.exit`).
import type { ActorSystem, ShutdownOptions, ShutdownReport } from './system.js';

/** Where signals come from: `process`, or an EventEmitter in tests. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

export interface SignalOptions extends ShutdownOptions {
  readonly signals?: readonly NodeJS.Signals[];
  readonly source?: SignalSource;
}

const installed = new WeakMap<ActorSystem, () => void>();

/**
 * On the first of `signals` (default SIGINT, SIGTERM) shuts `system` down and then calls
 * `onDone` once; repeated signals are ignored. Installing again for the same system is a no-op
 * returning the same uninstall function, which removes the listeners.
 */
export function installSignalHandlers(
  system: ActorSystem,
  onDone: (report: ShutdownReport, signal: NodeJS.Signals) => void,
  opts: SignalOptions = {},
): () => void {
  const existing = installed.get(system);
  if (existing !== undefined) return existing;
  const source = opts.source ?? process;
  const signals = opts.signals ?? ['SIGINT', 'SIGTERM'];
  let fired = false;
  const listeners = signals.map((signal) => {
    const listener = (): void => {
      if (fired) return;
      fired = true;
      void system.shutdown(opts).then((report) => onDone(report, signal));
    };
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  const uninstall = (): void => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
    installed.delete(system);
  };
  installed.set(system, uninstall);
  return uninstall;
}
