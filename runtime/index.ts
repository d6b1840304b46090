// The runtime's public surface: import from here, not from the modules behind it.
export type { ActorState, ActorStats } from './cell.js';
export { decode, encode, type Plain, type PlainObject, roundTrip } from './codec.js';
export * from './constants.js';
export {
  ActorBusyError,
  ActorCrashedError,
  ActorError,
  ActorHandlerError,
  ActorInitError,
  ActorTimeoutError,
  ActorUnavailableError,
  PoolBusyError,
  PoolError,
  toWireError,
  type UnavailableReason,
  type WireError,
  WorkerCrashedError,
} from './errors.js';
export type { JobKind, JobResult, KindTable } from './job.js';
export type { ActorOptions, Placement } from './options.js';
export {
  type ActorContext,
  type ActorFactory,
  type ActorHandler,
  type ActorModule,
  actorFromHandlers,
  actorModule,
  type Events,
  type Exchange,
  type Handlers,
  type Kind,
  type LinkedActor,
  type Message,
  type NoEvents,
  type Protocol,
  type Reply,
  type SharedMemory,
} from './protocol.js';
export { type RingSlice, SharedRing } from './shared_ring.js';
export { installSignalHandlers, type SignalOptions, type SignalSource } from './signals.js';
export {
  type ActorRef,
  type ActorShutdown,
  ActorSystem,
  type AskOptions,
  type ShutdownOptions,
  type ShutdownReport,
  type SpawnOptions,
} from './system.js';
export { lowerThreadPriority } from './thread_priority.js';
export { type BatchOptions, WorkPool, type WorkPoolOptions } from './workpool.js';
export { YieldFlag } from './yield_flag.js';
