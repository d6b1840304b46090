// Node-API surface of the secp256k1 multi-scalar addon. All calls are synchronous (callers run
// in pool workers) and take flat Uint8Arrays:
//
//   decode(encoded: k*33 bytes, out: k*64 bytes): number
//       decodes 02/03 (y parity) and 08/09 (y square / not) encodings into x || y;
//       -1 when all decode, else the index of the first that does not.
//   sqrt(a: 32 bytes, out: 32 bytes): boolean
//       the square root of a field element that is itself a square; false if none (or a >= p).
//   msm(affine: m*64, affineScalars: m*32, encoded: k*33, encodedScalars: k*32,
//       out: 64 bytes | null): number
//       sum of s*P over both lists (scalars big-endian, reduced mod n). 1 when the sum is the
//       point at infinity, 0 when not (and out, if given, receives its x || y); -1 - i when
//       input point i is bad, counting the encoded points first, then the affine ones.
//   bulletproofBatch(records: k*18*32, points: k*15*64, generators: 130*64): number
//       the batch equation of k 64-bit bulletproofs (layout in bulletproof.h): 1 when all
//       verify, 0 when not, negative for a point off the curve or a zero challenge.
//   arith.<op>(a: k*32, [b: k*32,] out: k*32): undefined
//       test surface only (arith_ops.h): one field or scalar primitive on k operands (or
//       pairs a[i], b[i]), 32 bytes big-endian each, results into out.
//
// Wrong argument types or lengths throw a TypeError / RangeError.
#define NAPI_VERSION 8
#include <node_api.h>

#include <string>
#include <vector>

#include "arith_ops.h"
#include "bulletproof.h"
#include "group.h"
#include "msm.h"

namespace {

using msm::Fe;
using msm::Ge;
using msm::Gej;
using msm::Scalar;

struct Bytes {
  uint8_t* data = nullptr;
  size_t length = 0;
  bool null = false;
};

// Reads argument i as a Uint8Array (or null/undefined when allowed); throws on anything else.
bool get_bytes(napi_env env, napi_value v, const char* what, Bytes& out, bool nullable = false) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) return false;
  if (nullable && (t == napi_null || t == napi_undefined)) {
    out.null = true;
    return true;
  }
  bool is_typed = false;
  napi_is_typedarray(env, v, &is_typed);
  if (is_typed) {
    napi_typedarray_type type;
    void* data;
    napi_value ab;
    size_t offset;
    if (napi_get_typedarray_info(env, v, &type, &out.length, &data, &ab, &offset) == napi_ok &&
        type == napi_uint8_array) {
      out.data = static_cast<uint8_t*>(data);
      return true;
    }
  }
  std::string msg = std::string("secp256k1: ") + what + " must be a Uint8Array";
  napi_throw_type_error(env, nullptr, msg.c_str());
  return false;
}

bool get_args(napi_env env, napi_callback_info info, size_t want, napi_value* argv) {
  size_t argc = want;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok) return false;
  for (size_t i = argc; i < want; i++) napi_get_undefined(env, &argv[i]);
  return true;
}

bool range_error(napi_env env, const char* msg) {
  napi_throw_range_error(env, nullptr, msg);
  return false;
}

napi_value make_int(napi_env env, int64_t v) {
  napi_value r;
  napi_create_int64(env, v, &r);
  return r;
}

napi_value make_bool(napi_env env, bool v) {
  napi_value r;
  napi_get_boolean(env, v, &r);
  return r;
}

void ge_to_bytes(uint8_t* out, const Ge& p) {
  msm::fe_to_bytes(out, p.x);
  msm::fe_to_bytes(out + 32, p.y);
}

napi_value Decode(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  Bytes enc, out;
  if (!get_args(env, info, 2, argv) || !get_bytes(env, argv[0], "encoded", enc) ||
      !get_bytes(env, argv[1], "out", out))
    return nullptr;
  if (enc.length % 33 != 0) return range_error(env, "secp256k1: encoded length not k*33"), nullptr;
  size_t k = enc.length / 33;
  if (out.length < k * 64) return range_error(env, "secp256k1: out shorter than k*64"), nullptr;
  for (size_t i = 0; i < k; i++) {
    Ge p;
    if (!msm::ge_decode33(p, enc.data + 33 * i)) return make_int(env, (int64_t)i);
    ge_to_bytes(out.data + 64 * i, p);
  }
  return make_int(env, -1);
}

napi_value Sqrt(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  Bytes a, out;
  if (!get_args(env, info, 2, argv) || !get_bytes(env, argv[0], "a", a) ||
      !get_bytes(env, argv[1], "out", out))
    return nullptr;
  if (a.length != 32 || out.length < 32)
    return range_error(env, "secp256k1: sqrt takes 32 bytes into 32 bytes"), nullptr;
  Fe x, r;
  if (!msm::fe_from_bytes(x, a.data) || !msm::fe_sqrt(r, x)) return make_bool(env, false);
  msm::fe_to_bytes(out.data, r);
  return make_bool(env, true);
}

napi_value Msm(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  Bytes aff, affS, enc, encS, out;
  if (!get_args(env, info, 5, argv) || !get_bytes(env, argv[0], "affine", aff) ||
      !get_bytes(env, argv[1], "affineScalars", affS) ||
      !get_bytes(env, argv[2], "encoded", enc) ||
      !get_bytes(env, argv[3], "encodedScalars", encS) ||
      !get_bytes(env, argv[4], "out", out, true))
    return nullptr;
  if (aff.length % 64 != 0 || affS.length != aff.length / 2)
    return range_error(env, "secp256k1: affine must be m*64 bytes with m*32 scalar bytes"),
           nullptr;
  if (enc.length % 33 != 0 || encS.length != enc.length / 33 * 32)
    return range_error(env, "secp256k1: encoded must be k*33 bytes with k*32 scalar bytes"),
           nullptr;
  if (!out.null && out.length < 64)
    return range_error(env, "secp256k1: out must hold 64 bytes"), nullptr;
  const size_t m = aff.length / 64;
  const size_t k = enc.length / 33;
  std::vector<Ge> points(k + m);
  std::vector<Scalar> scalars(k + m);
  for (size_t i = 0; i < k; i++) {
    if (!msm::ge_decode33(points[i], enc.data + 33 * i)) return make_int(env, -1 - (int64_t)i);
    msm::scalar_from_bytes(scalars[i], encS.data + 32 * i);
  }
  for (size_t i = 0; i < m; i++) {
    if (!msm::ge_from_xy(points[k + i], aff.data + 64 * i))
      return make_int(env, -1 - (int64_t)(k + i));
    msm::scalar_from_bytes(scalars[k + i], affS.data + 32 * i);
  }
  Gej sum;
  msm::multi_mul(sum, points, scalars);
  if (sum.inf || msm::fe_is_zero(sum.z)) return make_int(env, 1);
  if (!out.null) {
    Ge a;
    msm::gej_to_ge(a, sum);
    ge_to_bytes(out.data, a);
  }
  return make_int(env, 0);
}

napi_value BulletproofBatch(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  Bytes rec, pts, gens;
  if (!get_args(env, info, 3, argv) || !get_bytes(env, argv[0], "records", rec) ||
      !get_bytes(env, argv[1], "points", pts) || !get_bytes(env, argv[2], "generators", gens))
    return nullptr;
  const size_t record = 32 * msm::BP_RECORD_SCALARS;
  const size_t k = rec.length / record;
  if (rec.length % record != 0 || pts.length != k * 64 * msm::BP_POINTS ||
      gens.length != 64 * msm::BP_FIXED)
    return range_error(env, "secp256k1: bulletproofBatch takes k*576, k*960 and 8320 bytes"),
           nullptr;
  return make_int(env, msm::bulletproof_batch(rec.data, k, pts.data, gens.data));
}

napi_value Arith(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  size_t argc = 3;
  void* data = nullptr;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, &data) != napi_ok) return nullptr;
  const msm::ArithOp& op = *static_cast<const msm::ArithOp*>(data);
  const size_t n = (size_t)op.operands;
  for (size_t i = argc; i < n + 1; i++) napi_get_undefined(env, &argv[i]);
  Bytes a, b, out;
  if (!get_bytes(env, argv[0], "a", a) || (n == 2 && !get_bytes(env, argv[1], "b", b)) ||
      !get_bytes(env, argv[n], "out", out))
    return nullptr;
  if (a.length % 32 != 0 || (n == 2 && b.length != a.length) || out.length < a.length)
    return range_error(env, "secp256k1: arith takes k*32-byte operands and out"), nullptr;
  for (size_t i = 0; i < a.length; i += 32)
    op.run(out.data + i, a.data + i, n == 2 ? b.data + i : nullptr);
  return nullptr;
}

// The `arith` object: one method per entry of ARITH_OPS, the entry as its callback data.
napi_value MakeArith(napi_env env) {
  napi_value obj;
  napi_create_object(env, &obj);
  for (size_t i = 0; i < msm::ARITH_OP_COUNT; i++) {
    const msm::ArithOp& op = msm::ARITH_OPS[i];
    napi_value fn;
    napi_create_function(env, op.name, NAPI_AUTO_LENGTH, Arith, (void*)&op, &fn);
    napi_set_named_property(env, obj, op.name, fn);
  }
  return obj;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"decode", nullptr, Decode, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"sqrt", nullptr, Sqrt, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"msm", nullptr, Msm, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"bulletproofBatch", nullptr, BulletproofBatch, nullptr, nullptr, nullptr, napi_enumerable,
       nullptr},
      {"arith", nullptr, nullptr, nullptr, nullptr, MakeArith(env), napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
