// Node-API surface of the sockets addon, one per JavaScript thread that loads it:
//
//   start(helpers: number): undefined
//       starts the helper threads (at most 16), once; they run at the priority the calling
//       thread has now, so a thread that lowers its priority later starts them first.
//   sendAll(fds: Int32Array, data: Uint8Array, written: Int32Array): undefined
//       sends data to every descriptor (fanout.h); written[i] gets the bytes taken or -errno.
//       Synchronous: it returns once every send is done.
//
// Wrong argument types or lengths throw a TypeError / RangeError.
#define NAPI_VERSION 8
#include <node_api.h>

#include <memory>

#include "fanout.h"

namespace {

constexpr unsigned kMaxHelpers = 16;

struct Instance {
  std::unique_ptr<FanOut> fanout;
};

Instance* Of(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return static_cast<Instance*>(data);
}

bool Fail(napi_env env, bool range, const char* msg) {
  if (range)
    napi_throw_range_error(env, nullptr, msg);
  else
    napi_throw_type_error(env, nullptr, msg);
  return false;
}

// The bytes of a typed array of the given type.
bool Typed(napi_env env, napi_value v, napi_typedarray_type want, void** data, size_t* length) {
  bool is = false;
  napi_is_typedarray(env, v, &is);
  if (!is) return Fail(env, false, "expected a typed array");
  napi_typedarray_type type;
  napi_get_typedarray_info(env, v, &type, length, data, nullptr, nullptr);
  if (type != want) return Fail(env, false, "wrong typed array type");
  return true;
}

napi_value Start(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  uint32_t helpers = 0;
  if (argc < 1 || napi_get_value_uint32(env, argv[0], &helpers) != napi_ok) {
    Fail(env, false, "start(helpers: number)");
    return nullptr;
  }
  if (helpers > kMaxHelpers) {
    Fail(env, true, "at most 16 helpers");
    return nullptr;
  }
  Instance* inst = Of(env);
  if (!inst->fanout) inst->fanout = std::make_unique<FanOut>(helpers);
  return nullptr;
}

napi_value SendAll(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 3) {
    Fail(env, false, "sendAll(fds: Int32Array, data: Uint8Array, written: Int32Array)");
    return nullptr;
  }
  void *fds, *data, *written;
  size_t n, len, out;
  if (!Typed(env, argv[0], napi_int32_array, &fds, &n) ||
      !Typed(env, argv[1], napi_uint8_array, &data, &len) ||
      !Typed(env, argv[2], napi_int32_array, &written, &out))
    return nullptr;
  if (out != n) {
    Fail(env, true, "written must have one entry per descriptor");
    return nullptr;
  }
  if (len > 0x7fffffff) {
    Fail(env, true, "data too long");
    return nullptr;
  }
  Instance* inst = Of(env);
  if (!inst->fanout) inst->fanout = std::make_unique<FanOut>(0);
  inst->fanout->SendAll(static_cast<const int32_t*>(fds), static_cast<int32_t*>(written), n,
                        static_cast<const uint8_t*>(data), len);
  return nullptr;
}

void Finalize(napi_env, void* data, void*) { delete static_cast<Instance*>(data); }

}  // namespace

NAPI_MODULE_INIT() {
  // The helpers are joined when this thread's environment goes away.
  napi_set_instance_data(env, new Instance(), Finalize, nullptr);
  napi_property_descriptor props[] = {
      {"start", nullptr, Start, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"sendAll", nullptr, SendAll, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, 2, props);
  return exports;
}
