// The job kinds production pool workers know. Later issues register theirs here (proof of work,
// kernel signatures, range proofs), each implemented in its own module; the pool wrapper never
// changes for a new kind.
import type { KindTable } from './job.js';

export const kinds: KindTable = {};
