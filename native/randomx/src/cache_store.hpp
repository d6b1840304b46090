// Process-wide store of prepared Caches, shared by every thread and every
// Node.js environment (main thread and worker_threads) that loads the addon.
//
// Sharing model: a Cache is immutable once built, so it is handed out as a
// shared_ptr<const Cache> and read concurrently without locks. The store
// keeps the two most recently used keys (current and previous RandomX
// epoch); requesting a third evicts the least recently used one, whose
// memory is released when the last hash still using it finishes. Concurrent
// requests for a key that is being built wait for that single build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cache.hpp"

namespace rx {

constexpr size_t kKeptCaches = 2;

// Returns the cache for `key`, building it (about a second, 256 MiB) when
// it is not held. Blocks; call from a worker thread. Throws on failure
// (e.g. std::bad_alloc), in which case nothing is kept for that key.
std::shared_ptr<const Cache> cache_acquire(const std::vector<uint8_t>& key);

// Keys currently held or being built, most recently used first.
std::vector<std::vector<uint8_t>> cache_keys();

}  // namespace rx
