// The MMR suite on the in-memory backend.
import { MemBackend } from '../../../core/mmr/mem_backend.js';
import { mmrBackendSuite } from './backend_suite.js';

mmrBackendSuite('the in-memory backend', (options) => new MemBackend(options));
