// Node-API binding.
//
//   initCache(key: Uint8Array): Promise<void>
//   hash(key: Uint8Array, input: Uint8Array): Promise<Buffer>   (32 bytes)
//   hashSync(key, input): Buffer                                 (blocks)
//   cachedKeys(): Buffer[]                                       (MRU first)
//   variant: "epic-randomx-v1.0.3"
//   blake2b256(input: Uint8Array): Buffer                        (32 bytes; sync)
//   blake2b256Scratch(): ArrayBuffer, blake2b256At(len): void     (the same,
//              through a per-thread scratch buffer; see the section below)
//   internals: { blake2b, argon2d, aesRound, datasetItem }  (piece-level
//              known-answer tests; synchronous, not for production use)
//
// Promises are settled from libuv thread-pool work, so the event loop never
// runs Argon2 or the VM. Caches live in a process-wide store (see
// cache_store.hpp) shared by all worker_threads that load this addon; each
// thread-pool thread keeps its own 2 MiB scratchpad.
#define NAPI_VERSION 8
#include <node_api.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "aes.hpp"
#include "argon2d.hpp"
#include "blake2b.hpp"
#include "cache_store.hpp"
#include "randomx.hpp"

namespace {

using rx::Cache;

#define CALL(env, expr)                                              \
  do {                                                               \
    if ((expr) != napi_ok) {                                         \
      napi_throw_error((env), nullptr, "randomx: N-API call failed"); \
      return nullptr;                                                \
    }                                                                \
  } while (0)

bool read_bytes(napi_env env, napi_value v, const char* what, std::vector<uint8_t>& out) {
  bool is_typed = false;
  napi_is_typedarray(env, v, &is_typed);
  if (is_typed) {
    napi_typedarray_type type;
    size_t length;
    void* data;
    napi_value ab;
    size_t offset;
    if (napi_get_typedarray_info(env, v, &type, &length, &data, &ab, &offset) == napi_ok &&
        type == napi_uint8_array) {
      const uint8_t* p = static_cast<const uint8_t*>(data);
      out.assign(p, p + length);
      return true;
    }
  }
  std::string msg = std::string("randomx: ") + what + " must be a Uint8Array";
  napi_throw_type_error(env, nullptr, msg.c_str());
  return false;
}

uint8_t* thread_scratchpad() {
  thread_local std::unique_ptr<uint8_t[]> sp;
  if (!sp) sp.reset(new uint8_t[rx::kScratchpadBytes]);
  return sp.get();
}

// State of one queued job; owned by the async work until completion.
struct Job {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  std::vector<uint8_t> key;
  std::vector<uint8_t> input;
  bool want_hash = false;
  uint8_t out[32];
  std::string error;
};

void job_execute(napi_env, void* data) {
  Job* job = static_cast<Job*>(data);
  try {
    std::shared_ptr<const Cache> cache = rx::cache_acquire(job->key);
    if (job->want_hash)
      rx::randomx_hash(*cache, job->input.data(), job->input.size(), job->out, thread_scratchpad());
  } catch (const std::bad_alloc&) {
    job->error = "randomx: out of memory";
  } catch (const std::exception& e) {
    job->error = std::string("randomx: ") + e.what();
  } catch (...) {
    job->error = "randomx: unknown failure";
  }
}

void job_complete(napi_env env, napi_status status, void* data) {
  std::unique_ptr<Job> job(static_cast<Job*>(data));
  napi_value result = nullptr;
  if (status == napi_ok && job->error.empty()) {
    if (job->want_hash) {
      void* copy;
      napi_create_buffer_copy(env, 32, job->out, &copy, &result);
    } else {
      napi_get_undefined(env, &result);
    }
    napi_resolve_deferred(env, job->deferred, result);
  } else {
    napi_value msg;
    std::string text = job->error.empty() ? "randomx: job cancelled" : job->error;
    napi_create_string_utf8(env, text.c_str(), text.size(), &msg);
    napi_create_error(env, nullptr, msg, &result);
    napi_reject_deferred(env, job->deferred, result);
  }
  napi_delete_async_work(env, job->work);
}

napi_value queue(napi_env env, std::unique_ptr<Job> job, const char* name) {
  napi_value promise, resource_name;
  CALL(env, napi_create_promise(env, &job->deferred, &promise));
  CALL(env, napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource_name));
  CALL(env, napi_create_async_work(env, nullptr, resource_name, job_execute, job_complete, job.get(), &job->work));
  CALL(env, napi_queue_async_work(env, job->work));
  job.release();  // job_complete frees it
  return promise;
}

napi_value js_init_cache(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::unique_ptr<Job> job(new Job());
  if (argc < 1 || !read_bytes(env, argv[0], "key", job->key)) {
    if (argc < 1) napi_throw_type_error(env, nullptr, "randomx: initCache(key) needs a key");
    return nullptr;
  }
  return queue(env, std::move(job), "randomx.initCache");
}

// Reads (key, input) into a hashing job; false with a JS exception pending when they are bad.
bool read_hash_args(napi_env env, napi_callback_info info, const char* usage, Job& job) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok) {
    napi_throw_error(env, nullptr, "randomx: cannot read the arguments");
    return false;
  }
  if (argc < 2) {
    napi_throw_type_error(env, nullptr, usage);
    return false;
  }
  job.want_hash = true;
  return read_bytes(env, argv[0], "key", job.key) && read_bytes(env, argv[1], "input", job.input);
}

napi_value js_hash(napi_env env, napi_callback_info info) {
  std::unique_ptr<Job> job(new Job());
  if (!read_hash_args(env, info, "randomx: hash(key, input) needs two arguments", *job)) return nullptr;
  return queue(env, std::move(job), "randomx.hash");
}

napi_value js_hash_sync(napi_env env, napi_callback_info info) {
  Job job;
  if (!read_hash_args(env, info, "randomx: hashSync(key, input) needs two arguments", job)) return nullptr;
  job_execute(env, &job);
  if (!job.error.empty()) {
    napi_throw_error(env, nullptr, job.error.c_str());
    return nullptr;
  }
  napi_value result;
  void* copy;
  CALL(env, napi_create_buffer_copy(env, 32, job.out, &copy, &result));
  return result;
}

napi_value js_cached_keys(napi_env env, napi_callback_info) {
  std::vector<std::vector<uint8_t>> keys = rx::cache_keys();
  napi_value arr;
  CALL(env, napi_create_array_with_length(env, keys.size(), &arr));
  for (size_t i = 0; i < keys.size(); ++i) {
    napi_value b;
    void* copy;
    CALL(env, napi_create_buffer_copy(env, keys[i].size(), keys[i].data(), &copy, &b));
    CALL(env, napi_set_element(env, arr, uint32_t(i), b));
  }
  return arr;
}


// --- BLAKE2b-256 for core/hash (synchronous, on the calling thread) --------
//
// A call costs a few hundred nanoseconds, so N-API overhead matters as much as
// the hash. Two measured costs shape this: creating the result Buffer
// (napi_create_buffer_copy, ~0.4 us) and asking for the data of a small
// on-heap Uint8Array (<= 64 bytes), which makes V8 move it off the heap
// (~0.6 us). So the fast path works in a per-thread scratch ArrayBuffer that
// JS writes the input into and reads the digest from: no typed array crosses,
// nothing is allocated. blake2b256(input) is the plain form for any size.

constexpr size_t kDigest = 32;
// Covers every MMR leaf and header preimage; larger inputs take blake2b256().
constexpr size_t kScratchInput = 4096;

// Per-thread (per napi_env) scratch: [digest 32 | input kScratchInput].
struct HashScratch {
  napi_ref ref = nullptr;  // keeps the ArrayBuffer, hence `base`, alive
  uint8_t* base = nullptr;
};

void free_scratch(napi_env env, void* data, void*) {
  HashScratch* s = static_cast<HashScratch*>(data);
  if (s->ref != nullptr) napi_delete_reference(env, s->ref);
  delete s;
}

HashScratch* scratch_of(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return static_cast<HashScratch*>(data);
}

// blake2b256(input: Uint8Array) -> Buffer(32)
napi_value js_blake2b256(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  CALL(env, napi_get_cb_info(env, info, &argc, &arg, nullptr, nullptr));
  napi_typedarray_type type;
  size_t len = 0;
  void* data = nullptr;
  // One call both checks the argument and yields its bytes (a non-typed-array fails it).
  if (argc < 1 || napi_get_typedarray_info(env, arg, &type, &len, &data, nullptr, nullptr) != napi_ok ||
      type != napi_uint8_array) {
    napi_throw_type_error(env, nullptr, "blake2b256: input must be a Uint8Array");
    return nullptr;
  }
  uint8_t out[kDigest];
  rx::blake2b(out, kDigest, data, len);
  napi_value result;
  void* copy;
  CALL(env, napi_create_buffer_copy(env, kDigest, out, &copy, &result));
  return result;
}

// blake2b256Scratch() -> ArrayBuffer(32 + 4096), the same one on every call from a thread
napi_value js_blake2b256_scratch(napi_env env, napi_callback_info) {
  HashScratch* s = scratch_of(env);
  napi_value ab;
  if (s != nullptr) {
    CALL(env, napi_get_reference_value(env, s->ref, &ab));
    return ab;
  }
  void* base;
  CALL(env, napi_create_arraybuffer(env, kDigest + kScratchInput, &base, &ab));
  s = new HashScratch();
  s->base = static_cast<uint8_t*>(base);
  if (napi_create_reference(env, ab, 1, &s->ref) != napi_ok ||
      napi_set_instance_data(env, s, free_scratch, nullptr) != napi_ok) {
    free_scratch(env, s, nullptr);
    napi_throw_error(env, nullptr, "blake2b256: cannot keep the scratch buffer");
    return nullptr;
  }
  return ab;
}

// blake2b256At(len): digest of scratch[32, 32 + len) into scratch[0, 32)
napi_value js_blake2b256_at(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  CALL(env, napi_get_cb_info(env, info, &argc, &arg, nullptr, nullptr));
  HashScratch* s = scratch_of(env);
  uint32_t len = 0;
  if (s == nullptr) {
    napi_throw_error(env, nullptr, "blake2b256At: call blake2b256Scratch() first");
    return nullptr;
  }
  if (argc < 1 || napi_get_value_uint32(env, arg, &len) != napi_ok || len > kScratchInput) {
    napi_throw_range_error(env, nullptr, "blake2b256At: length must be 0..4096");
    return nullptr;
  }
  rx::blake2b(s->base, kDigest, s->base + kDigest, len);
  return nullptr;
}


// --- internals: the pieces that have their own published vectors ---------

bool read_u32(napi_env env, napi_value v, const char* what, uint32_t& out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 4294967295.0 || d != double(uint32_t(d))) {
    std::string msg = std::string("randomx: ") + what + " must be an integer in [0, 2^32)";
    napi_throw_range_error(env, nullptr, msg.c_str());
    return false;
  }
  out = uint32_t(d);
  return true;
}

napi_value make_buffer(napi_env env, const uint8_t* data, size_t len) {
  napi_value result;
  void* copy;
  if (napi_create_buffer_copy(env, len, data, &copy, &result) != napi_ok) return nullptr;
  return result;
}

// blake2b(data, outLen) -> Buffer(outLen), outLen 1..64
napi_value js_blake2b(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::vector<uint8_t> data;
  uint32_t out_len = 0;
  if (argc < 2 || !read_bytes(env, argv[0], "data", data) || !read_u32(env, argv[1], "outLen", out_len)) return nullptr;
  if (out_len < 1 || out_len > 64) {
    napi_throw_range_error(env, nullptr, "randomx: outLen must be 1..64");
    return nullptr;
  }
  uint8_t out[64];
  rx::blake2b(out, out_len, data.data(), data.size());
  return make_buffer(env, out, out_len);
}

// argon2d(password, salt, secret, ad, lanes, passes, memoryKiB, tagLen) -> tag
napi_value js_argon2d(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 8) {
    napi_throw_type_error(env, nullptr, "randomx: argon2d needs 8 arguments");
    return nullptr;
  }
  std::vector<uint8_t> pwd, salt, secret, ad;
  uint32_t lanes, passes, mem, tag_len;
  if (!read_bytes(env, argv[0], "password", pwd) || !read_bytes(env, argv[1], "salt", salt) ||
      !read_bytes(env, argv[2], "secret", secret) || !read_bytes(env, argv[3], "ad", ad) ||
      !read_u32(env, argv[4], "lanes", lanes) || !read_u32(env, argv[5], "passes", passes) ||
      !read_u32(env, argv[6], "memoryKiB", mem) || !read_u32(env, argv[7], "tagLen", tag_len))
    return nullptr;
  // Small instances only: this is for test vectors, and runs on the caller's thread.
  if (lanes < 1 || lanes > 64 || passes < 1 || passes > 16 || mem > 65536 || tag_len < 4 || tag_len > 1024) {
    napi_throw_range_error(env, nullptr, "randomx: argon2d parameters out of the supported test range");
    return nullptr;
  }
  rx::Argon2Params p;
  p.password = pwd.data();
  p.password_len = pwd.size();
  p.salt = salt.data();
  p.salt_len = salt.size();
  p.secret = secret.data();
  p.secret_len = secret.size();
  p.assoc = ad.data();
  p.assoc_len = ad.size();
  p.lanes = lanes;
  p.passes = passes;
  p.memory_kib = mem;
  p.tag_len = tag_len;
  std::vector<uint64_t> memory(size_t(rx::argon2_block_count(p)) * 128);
  std::vector<uint8_t> tag(tag_len);
  rx::argon2d_hash(p, memory.data(), tag.data());
  return make_buffer(env, tag.data(), tag.size());
}

// aesRound(state16, key16, decrypt) -> Buffer(16): one AESENC / AESDEC round
napi_value js_aes_round(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::vector<uint8_t> state, key;
  bool decrypt = false;
  if (argc < 3 || !read_bytes(env, argv[0], "state", state) || !read_bytes(env, argv[1], "key", key)) return nullptr;
  if (state.size() != 16 || key.size() != 16) {
    napi_throw_range_error(env, nullptr, "randomx: AES state and key are 16 bytes");
    return nullptr;
  }
  CALL(env, napi_get_value_bool(env, argv[2], &decrypt));
  rx::Block128 s = rx::block_load(state.data()), k = rx::block_load(key.data());
  uint8_t out[16];
  rx::block_store(out, decrypt ? rx::aes_dec_round(s, k) : rx::aes_enc_round(s, k));
  return make_buffer(env, out, 16);
}

// datasetItem(key, item) -> Buffer(64); builds/uses the shared cache (blocks)
napi_value js_dataset_item(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::vector<uint8_t> key;
  uint32_t item = 0;
  if (argc < 2 || !read_bytes(env, argv[0], "key", key) || !read_u32(env, argv[1], "item", item)) return nullptr;
  try {
    std::shared_ptr<const Cache> cache = rx::cache_acquire(key);
    uint64_t w[8];
    cache->dataset_item(item, w);
    uint8_t out[64];
    for (int i = 0; i < 8; ++i)
      for (int b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(w[i] >> (8 * b));
    return make_buffer(env, out, 64);
  } catch (const std::exception& e) {
    napi_throw_error(env, nullptr, (std::string("randomx: ") + e.what()).c_str());
    return nullptr;
  }
}

napi_value make_internals(napi_env env) {
  napi_value obj;
  if (napi_create_object(env, &obj) != napi_ok) return nullptr;
  napi_property_descriptor props[4];
  std::memset(props, 0, sizeof props);
  props[0].utf8name = "blake2b";
  props[0].method = js_blake2b;
  props[1].utf8name = "argon2d";
  props[1].method = js_argon2d;
  props[2].utf8name = "aesRound";
  props[2].method = js_aes_round;
  props[3].utf8name = "datasetItem";
  props[3].method = js_dataset_item;
  napi_define_properties(env, obj, 4, props);
  return obj;
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_property_descriptor props[9];
  std::memset(props, 0, sizeof props);
  props[0].utf8name = "initCache";
  props[0].method = js_init_cache;
  props[1].utf8name = "hash";
  props[1].method = js_hash;
  props[2].utf8name = "hashSync";
  props[2].method = js_hash_sync;
  props[3].utf8name = "cachedKeys";
  props[3].method = js_cached_keys;
  napi_value variant;
  napi_create_string_utf8(env, "epic-randomx-v1.0.3", NAPI_AUTO_LENGTH, &variant);
  props[4].utf8name = "variant";
  props[4].value = variant;
  props[4].attributes = napi_enumerable;
  props[5].utf8name = "internals";
  props[5].value = make_internals(env);
  props[5].attributes = napi_enumerable;
  props[6].utf8name = "blake2b256";
  props[6].method = js_blake2b256;
  props[7].utf8name = "blake2b256Scratch";
  props[7].method = js_blake2b256_scratch;
  props[8].utf8name = "blake2b256At";
  props[8].method = js_blake2b256_at;
  napi_define_properties(env, exports, 9, props);
  return exports;
}
