// The job kinds production pool workers know. Each family lives in its own module under jobs/
// (verification today; proof of work next); the pool wrapper never changes for a new kind.
import { powKinds } from '../jobs/pow.js';
import { verifyKinds } from '../jobs/verify.js';
import type { KindTable } from './job.js';

export const kinds: KindTable = { ...verifyKinds, ...powKinds };
