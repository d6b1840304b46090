#include "blake2b.hpp"

#include <cstring>

#include "bytes.hpp"

namespace rx {

namespace {

constexpr uint64_t kIv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

// Message word schedule; rounds 10 and 11 reuse rows 0 and 1.
constexpr uint8_t kSigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

inline void mix(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr64(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr64(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 63);
}

}  // namespace

Blake2b::Blake2b(size_t digest_len) : t_{0, 0}, buf_len_(0), digest_len_(digest_len) {
  for (int i = 0; i < 8; ++i) h_[i] = kIv[i];
  // Parameter block word 0: digest length, key length 0, fanout 1, depth 1.
  h_[0] ^= 0x01010000ULL ^ uint64_t(digest_len);
}

void Blake2b::compress(const uint8_t* block, bool last) {
  uint64_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = load_le64(block + 8 * i);
  uint64_t v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= t_[0];
  v[13] ^= t_[1];
  if (last) v[14] = ~v[14];
  for (int r = 0; r < 12; ++r) {
    const uint8_t* s = kSigma[r];
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

void Blake2b::update(const void* data, size_t len) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  while (len > 0) {
    // A full buffer is compressed only once more input arrives, because the
    // final block must be compressed with the "last" flag.
    if (buf_len_ == 128) {
      t_[0] += 128;
      if (t_[0] < 128) ++t_[1];
      compress(buf_, false);
      buf_len_ = 0;
    }
    size_t take = 128 - buf_len_;
    if (take > len) take = len;
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    len -= take;
  }
}

void Blake2b::finish(void* out) {
  t_[0] += buf_len_;
  if (t_[0] < buf_len_) ++t_[1];
  std::memset(buf_ + buf_len_, 0, 128 - buf_len_);
  compress(buf_, true);
  uint8_t full[64];
  for (int i = 0; i < 8; ++i) store_le64(full + 8 * i, h_[i]);
  std::memcpy(out, full, digest_len_);
}

void blake2b(void* out, size_t out_len, const void* in, size_t in_len) {
  Blake2b h(out_len);
  h.update(in, in_len);
  h.finish(out);
}

}  // namespace rx
