// The job kinds production pool workers know. Each family lives in its own module under jobs/
// (verification today; proof of work next); the pool wrapper never changes for a new kind.
import { coinbaseKinds } from '../jobs/coinbase.js';
import { installNativeBlake2b } from '../jobs/hash_addon.js';
import { powKinds } from '../jobs/pow.js';
import { verifyKinds } from '../jobs/verify.js';
import type { KindTable } from './job.js';

export const kinds: KindTable = { ...verifyKinds, ...powKinds, ...coinbaseKinds };

// Every production worker loads this module once: its hashing (kernel messages, pre-pow keys)
// goes native from the first job on.
installNativeBlake2b();
