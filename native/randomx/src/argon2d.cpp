#include "argon2d.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "blake2b.hpp"
#include "bytes.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the cache is read as little-endian words");

namespace rx {

namespace {

constexpr size_t kWords = 128;  // 64-bit words per 1 KiB block
constexpr uint32_t kSlices = 4;

// H' of RFC 9106 §3.3: variable-length hash built from chained BLAKE2b-512.
void hash_long(uint8_t* out, uint32_t out_len, const uint8_t* in, size_t in_len) {
  uint8_t len_le[4];
  store_le32(len_le, out_len);
  if (out_len <= 64) {
    Blake2b h(out_len);
    h.update(len_le, 4);
    h.update(in, in_len);
    h.finish(out);
    return;
  }
  uint8_t v[64];
  Blake2b h(64);
  h.update(len_le, 4);
  h.update(in, in_len);
  h.finish(v);
  std::memcpy(out, v, 32);
  uint32_t done = 32;
  // Each further 64-byte hash contributes its first half, until at most 64
  // bytes remain; those come whole from a final hash of that length.
  while (out_len - done > 64) {
    blake2b(v, 64, v, 64);
    std::memcpy(out + done, v, 32);
    done += 32;
  }
  uint32_t rest = out_len - done;
  uint8_t last[64];
  blake2b(last, rest, v, 64);
  std::memcpy(out + done, last, rest);
}

// The BlaMka quarter round: BLAKE2b's G with the additions replaced by
// a + b + 2 * lo32(a) * lo32(b).
inline uint64_t fma_lo(uint64_t a, uint64_t b) {
  return a + b + 2 * (a & 0xFFFFFFFFULL) * (b & 0xFFFFFFFFULL);
}

inline void quarter(uint64_t& a, uint64_t& b, uint64_t& c, uint64_t& d) {
  a = fma_lo(a, b);
  d = rotr64(d ^ a, 32);
  c = fma_lo(c, d);
  b = rotr64(b ^ c, 24);
  a = fma_lo(a, b);
  d = rotr64(d ^ a, 16);
  c = fma_lo(c, d);
  b = rotr64(b ^ c, 63);
}

// Permutation P over sixteen words (eight 16-byte registers) held in
// locals, so that every index is a compile-time constant.
inline void permute(uint64_t (&v)[16]) {
  quarter(v[0], v[4], v[8], v[12]);
  quarter(v[1], v[5], v[9], v[13]);
  quarter(v[2], v[6], v[10], v[14]);
  quarter(v[3], v[7], v[11], v[15]);
  quarter(v[0], v[5], v[10], v[15]);
  quarter(v[1], v[6], v[11], v[12]);
  quarter(v[2], v[7], v[8], v[13]);
  quarter(v[3], v[4], v[9], v[14]);
}

// Compression G(x, y) written into `out`; with `accumulate` the result is
// XORed into the previous content of `out` (version 0x13 for passes > 0).
void compress_portable(uint64_t* out, const uint64_t* x, const uint64_t* y, bool accumulate) {
  uint64_t r[kWords];
  uint64_t z[kWords];
  for (size_t i = 0; i < kWords; ++i) r[i] = x[i] ^ y[i];
  std::memcpy(z, r, sizeof z);
  // Rows: eight runs of sixteen consecutive words.
  for (int row = 0; row < 8; ++row) {
    uint64_t v[16];
    std::memcpy(v, z + 16 * row, sizeof v);
    permute(v);
    std::memcpy(z + 16 * row, v, sizeof v);
  }
  // Columns: register `col` of every row, i.e. word pairs 2col, 2col+1 at
  // stride 16.
  for (int col = 0; col < 8; ++col) {
    uint64_t v[16];
    for (int k = 0; k < 8; ++k) {
      v[2 * k] = z[16 * k + 2 * col];
      v[2 * k + 1] = z[16 * k + 2 * col + 1];
    }
    permute(v);
    for (int k = 0; k < 8; ++k) {
      z[16 * k + 2 * col] = v[2 * k];
      z[16 * k + 2 * col + 1] = v[2 * k + 1];
    }
  }
  if (accumulate) {
    for (size_t i = 0; i < kWords; ++i) out[i] ^= z[i] ^ r[i];
  } else {
    for (size_t i = 0; i < kWords; ++i) out[i] = z[i] ^ r[i];
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RX_ARGON2_AVX2 1

// The same compression with four 64-bit lanes per vector: each half of P
// applies the quarter round to four independent word groups, which map onto
// vector lanes (a, b, c, d = words 0-3, 4-7, 8-11, 12-15 of the sixteen);
// the diagonal half rotates b, c, d by one, two and three lanes first.
// Chosen at run time only when the CPU has AVX2.
#define RX_AVX2 __attribute__((target("avx2")))

RX_AVX2 static inline __m256i bla_add(__m256i a, __m256i b) {
  __m256i prod = _mm256_mul_epu32(a, b);  // lo32(a) * lo32(b) per lane
  return _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(prod, prod));
}

RX_AVX2 static inline __m256i rotr_v(__m256i x, int n) {
  return _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - n));
}

RX_AVX2 static inline void quarter_v(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  a = bla_add(a, b);
  d = rotr_v(_mm256_xor_si256(d, a), 32);
  c = bla_add(c, d);
  b = rotr_v(_mm256_xor_si256(b, c), 24);
  a = bla_add(a, b);
  d = rotr_v(_mm256_xor_si256(d, a), 16);
  c = bla_add(c, d);
  b = rotr_v(_mm256_xor_si256(b, c), 63);
}

RX_AVX2 static inline void permute_v(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  quarter_v(a, b, c, d);
  // Lane rotations line up the diagonals (v0,v5,v10,v15), (v1,v6,v11,v12)...
  b = _mm256_permute4x64_epi64(b, _MM_SHUFFLE(0, 3, 2, 1));
  c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(1, 0, 3, 2));
  d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(2, 1, 0, 3));
  quarter_v(a, b, c, d);
  b = _mm256_permute4x64_epi64(b, _MM_SHUFFLE(2, 1, 0, 3));
  c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(1, 0, 3, 2));
  d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(0, 3, 2, 1));
}

RX_AVX2 static void compress_avx2(uint64_t* out, const uint64_t* x, const uint64_t* y, bool accumulate) {
  alignas(32) uint64_t r[kWords];
  alignas(32) uint64_t z[kWords];
  for (size_t i = 0; i < kWords; i += 4) {
    __m256i v = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)),
                                 _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + i)));
    _mm256_store_si256(reinterpret_cast<__m256i*>(r + i), v);
    _mm256_store_si256(reinterpret_cast<__m256i*>(z + i), v);
  }
  for (int row = 0; row < 8; ++row) {
    __m256i* p = reinterpret_cast<__m256i*>(z + 16 * row);
    __m256i a = _mm256_load_si256(p), b = _mm256_load_si256(p + 1);
    __m256i c = _mm256_load_si256(p + 2), d = _mm256_load_si256(p + 3);
    permute_v(a, b, c, d);
    _mm256_store_si256(p, a);
    _mm256_store_si256(p + 1, b);
    _mm256_store_si256(p + 2, c);
    _mm256_store_si256(p + 3, d);
  }
  // Column `col`: word pairs (2col, 2col+1) of rows 0..7; vector a takes
  // rows 0 and 1, b rows 2 and 3, and so on.
  for (int col = 0; col < 8; ++col) {
    __m128i* q[8];
    for (int k = 0; k < 8; ++k) q[k] = reinterpret_cast<__m128i*>(z + 16 * k + 2 * col);
    __m256i a = _mm256_set_m128i(_mm_load_si128(q[1]), _mm_load_si128(q[0]));
    __m256i b = _mm256_set_m128i(_mm_load_si128(q[3]), _mm_load_si128(q[2]));
    __m256i c = _mm256_set_m128i(_mm_load_si128(q[5]), _mm_load_si128(q[4]));
    __m256i d = _mm256_set_m128i(_mm_load_si128(q[7]), _mm_load_si128(q[6]));
    permute_v(a, b, c, d);
    _mm_store_si128(q[0], _mm256_castsi256_si128(a));
    _mm_store_si128(q[1], _mm256_extracti128_si256(a, 1));
    _mm_store_si128(q[2], _mm256_castsi256_si128(b));
    _mm_store_si128(q[3], _mm256_extracti128_si256(b, 1));
    _mm_store_si128(q[4], _mm256_castsi256_si128(c));
    _mm_store_si128(q[5], _mm256_extracti128_si256(c, 1));
    _mm_store_si128(q[6], _mm256_castsi256_si128(d));
    _mm_store_si128(q[7], _mm256_extracti128_si256(d, 1));
  }
  for (size_t i = 0; i < kWords; i += 4) {
    __m256i v = _mm256_xor_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(z + i)),
                                 _mm256_load_si256(reinterpret_cast<const __m256i*>(r + i)));
    __m256i* o = reinterpret_cast<__m256i*>(out + i);
    if (accumulate) v = _mm256_xor_si256(v, _mm256_loadu_si256(o));
    _mm256_storeu_si256(o, v);
  }
}
#endif

using CompressFn = void (*)(uint64_t*, const uint64_t*, const uint64_t*, bool);

CompressFn pick_compress() {
#ifdef RX_ARGON2_AVX2
  if (std::getenv("RX_NO_SIMD") == nullptr && __builtin_cpu_supports("avx2")) return compress_avx2;
#endif
  return compress_portable;
}

void block_from_bytes(uint64_t* block, const uint8_t* bytes) {
  for (size_t i = 0; i < kWords; ++i) block[i] = load_le64(bytes + 8 * i);
}

void absorb_len(Blake2b& h, uint32_t v) {
  uint8_t b[4];
  store_le32(b, v);
  h.update(b, 4);
}

}  // namespace

uint32_t argon2_block_count(const Argon2Params& p) {
  uint32_t m = p.memory_kib;
  if (m < 8 * p.lanes) m = 8 * p.lanes;
  return (m / (kSlices * p.lanes)) * (kSlices * p.lanes);
}

void argon2d_fill(const Argon2Params& p, uint64_t* memory) {
  const uint32_t blocks = argon2_block_count(p);
  const uint32_t lane_len = blocks / p.lanes;
  const uint32_t seg_len = lane_len / kSlices;
  static const CompressFn compress = pick_compress();

  uint8_t h0[72];
  {
    Blake2b h(64);
    absorb_len(h, p.lanes);
    absorb_len(h, p.tag_len);
    absorb_len(h, p.memory_kib);
    absorb_len(h, p.passes);
    absorb_len(h, 0x13);  // version
    absorb_len(h, 0);     // type: Argon2d
    absorb_len(h, uint32_t(p.password_len));
    if (p.password_len) h.update(p.password, p.password_len);
    absorb_len(h, uint32_t(p.salt_len));
    if (p.salt_len) h.update(p.salt, p.salt_len);
    absorb_len(h, uint32_t(p.secret_len));
    if (p.secret_len) h.update(p.secret, p.secret_len);
    absorb_len(h, uint32_t(p.assoc_len));
    if (p.assoc_len) h.update(p.assoc, p.assoc_len);
    h.finish(h0);
  }

  uint8_t seed_block[1024];
  for (uint32_t lane = 0; lane < p.lanes; ++lane) {
    for (uint32_t k = 0; k < 2; ++k) {
      store_le32(h0 + 64, k);
      store_le32(h0 + 68, lane);
      hash_long(seed_block, 1024, h0, 72);
      block_from_bytes(memory + (size_t(lane) * lane_len + k) * kWords, seed_block);
    }
  }

  for (uint32_t pass = 0; pass < p.passes; ++pass) {
    for (uint32_t slice = 0; slice < kSlices; ++slice) {
      // Segments of one slice are independent; they are computed in turn.
      for (uint32_t lane = 0; lane < p.lanes; ++lane) {
        uint64_t* lane_base = memory + size_t(lane) * lane_len * kWords;
        uint32_t first = (pass == 0 && slice == 0) ? 2 : 0;
        for (uint32_t i = first; i < seg_len; ++i) {
          const uint32_t cur = slice * seg_len + i;
          const uint32_t prev = cur == 0 ? lane_len - 1 : cur - 1;
          const uint64_t* prev_block = lane_base + size_t(prev) * kWords;
          const uint64_t rand = prev_block[0];
          const uint32_t j1 = uint32_t(rand);
          const uint32_t j2 = uint32_t(rand >> 32);

          uint32_t ref_lane = j2 % p.lanes;
          if (pass == 0 && slice == 0) ref_lane = lane;
          const bool same_lane = ref_lane == lane;

          // Blocks that may be referenced: all finished blocks of the lane
          // (other lanes: only finished slices), never the previous block.
          uint32_t area;
          if (pass == 0) {
            if (same_lane) area = slice * seg_len + i - 1;
            else area = slice * seg_len - (i == 0 ? 1 : 0);
          } else {
            if (same_lane) area = lane_len - seg_len + i - 1;
            else area = lane_len - seg_len - (i == 0 ? 1 : 0);
          }
          uint64_t x = (uint64_t(j1) * j1) >> 32;
          uint64_t y = (uint64_t(area) * x) >> 32;
          uint32_t rel = area - 1 - uint32_t(y);
          uint32_t start = 0;
          if (pass != 0 && slice != kSlices - 1) start = (slice + 1) * seg_len;
          uint32_t ref_index = uint32_t((uint64_t(start) + rel) % lane_len);

          const uint64_t* ref_block = memory + (size_t(ref_lane) * lane_len + ref_index) * kWords;
          compress(lane_base + size_t(cur) * kWords, prev_block, ref_block, pass != 0);
        }
      }
    }
  }
}

void argon2d_hash(const Argon2Params& p, uint64_t* memory, uint8_t* tag) {
  argon2d_fill(p, memory);
  const uint32_t blocks = argon2_block_count(p);
  const uint32_t lane_len = blocks / p.lanes;
  uint64_t acc[kWords];
  std::memcpy(acc, memory + size_t(lane_len - 1) * kWords, sizeof acc);
  for (uint32_t lane = 1; lane < p.lanes; ++lane) {
    const uint64_t* last = memory + (size_t(lane) * lane_len + lane_len - 1) * kWords;
    for (size_t i = 0; i < kWords; ++i) acc[i] ^= last[i];
  }
  uint8_t bytes[1024];
  for (size_t i = 0; i < kWords; ++i) store_le64(bytes + 8 * i, acc[i]);
  hash_long(tag, p.tag_len, bytes, sizeof bytes);
}

}  // namespace rx
