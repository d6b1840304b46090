#include "cache_store.hpp"

#include <future>
#include <list>
#include <mutex>

namespace rx {

namespace {

struct Entry {
  std::vector<uint8_t> key;
  std::shared_future<std::shared_ptr<const Cache>> cache;
};

struct Store {
  std::mutex mu;
  std::list<Entry> lru;  // front = most recently used
};

// Never destroyed: thread-pool threads may still be hashing while the
// process exits, and static destructors must not pull the caches away.
Store& store() {
  static Store* s = new Store();
  return *s;
}

}  // namespace

std::shared_ptr<const Cache> cache_acquire(const std::vector<uint8_t>& key) {
  Store& s = store();
  std::shared_future<std::shared_ptr<const Cache>> waiting;
  std::promise<std::shared_ptr<const Cache>> building;
  bool builder = false;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    for (auto it = s.lru.begin(); it != s.lru.end(); ++it) {
      if (it->key == key) {
        s.lru.splice(s.lru.begin(), s.lru, it);
        waiting = it->cache;
        break;
      }
    }
    if (!waiting.valid()) {
      builder = true;
      waiting = building.get_future().share();
      s.lru.push_front(Entry{key, waiting});
      while (s.lru.size() > kKeptCaches) s.lru.pop_back();
    }
  }
  if (builder) {
    try {
      building.set_value(std::make_shared<const Cache>(key.data(), key.size()));
    } catch (...) {
      building.set_exception(std::current_exception());
      // Forget the failed build so that a later request tries again.
      std::lock_guard<std::mutex> lock(s.mu);
      for (auto it = s.lru.begin(); it != s.lru.end(); ++it) {
        if (it->key == key && it->cache.valid() &&
            it->cache.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
          bool failed = false;
          try {
            it->cache.get();
          } catch (...) {
            failed = true;
          }
          if (failed) {
            s.lru.erase(it);
            break;
          }
        }
      }
    }
  }
  return waiting.get();
}

std::vector<std::vector<uint8_t>> cache_keys() {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  std::vector<std::vector<uint8_t>> out;
  for (const Entry& e : s.lru) out.push_back(e.key);
  return out;
}

}  // namespace rx
