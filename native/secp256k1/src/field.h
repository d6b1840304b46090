// Arithmetic modulo p = 2^256 - 2^32 - 977 on four 64-bit limbs (little-endian). Elements are
// kept below 2^256 but not necessarily below p ("weakly reduced"); fe_normalize gives the
// canonical value. Every routine is variable time: the addon only handles public data
// (signatures, proofs, commitments being verified).
#pragma once
#include <cstdint>
#include <cstring>

namespace msm {

typedef unsigned __int128 u128;

struct Fe {
  uint64_t v[4];
};

// 2^256 mod p: the fold constant of the pseudo-Mersenne prime.
static const uint64_t FOLD = 0x1000003D1ULL;
static const uint64_t P0 = 0xFFFFFFFEFFFFFC2FULL;
static const uint64_t ONES = ~0ULL;

inline void fe_set_u64(Fe& r, uint64_t a) {
  r.v[0] = a;
  r.v[1] = r.v[2] = r.v[3] = 0;
}

// Adds carry * 2^256 back in as carry * FOLD; a second round is needed only when the first
// overflows again, which leaves a tiny value.
inline void fe_fold(Fe& r, uint64_t carry) {
  while (carry != 0) {
    u128 t = (u128)carry * FOLD + r.v[0];
    r.v[0] = (uint64_t)t;
    t = (t >> 64) + r.v[1];
    r.v[1] = (uint64_t)t;
    t = (t >> 64) + r.v[2];
    r.v[2] = (uint64_t)t;
    t = (t >> 64) + r.v[3];
    r.v[3] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
}

inline void fe_add(Fe& r, const Fe& a, const Fe& b) {
  u128 t = (u128)a.v[0] + b.v[0];
  r.v[0] = (uint64_t)t;
  t = (t >> 64) + a.v[1] + b.v[1];
  r.v[1] = (uint64_t)t;
  t = (t >> 64) + a.v[2] + b.v[2];
  r.v[2] = (uint64_t)t;
  t = (t >> 64) + a.v[3] + b.v[3];
  r.v[3] = (uint64_t)t;
  fe_fold(r, (uint64_t)(t >> 64));
}

// The canonical representative (< p). A weakly reduced value is below 2p, so at most one
// subtraction of p is needed; adding FOLD overflows 2^256 exactly when the value is >= p.
inline void fe_normalize(Fe& r) {
  if (r.v[3] != ONES || r.v[2] != ONES || r.v[1] != ONES || r.v[0] < P0) return;
  r.v[0] -= P0;
  r.v[1] = r.v[2] = r.v[3] = 0;
}

inline bool fe_is_zero(const Fe& a) {
  Fe t = a;
  fe_normalize(t);
  return (t.v[0] | t.v[1] | t.v[2] | t.v[3]) == 0;
}

inline bool fe_equal(const Fe& a, const Fe& b) {
  Fe x = a, y = b;
  fe_normalize(x);
  fe_normalize(y);
  return x.v[0] == y.v[0] && x.v[1] == y.v[1] && x.v[2] == y.v[2] && x.v[3] == y.v[3];
}

// p - a for the canonical a (p itself stands for 0 and is weakly reduced).
inline void fe_neg(Fe& r, const Fe& a) {
  Fe t = a;
  fe_normalize(t);
  u128 d = (u128)P0 - t.v[0];
  r.v[0] = (uint64_t)d;
  uint64_t borrow = (uint64_t)(d >> 64) & 1;
  d = (u128)ONES - t.v[1] - borrow;
  r.v[1] = (uint64_t)d;
  borrow = (uint64_t)(d >> 64) & 1;
  d = (u128)ONES - t.v[2] - borrow;
  r.v[2] = (uint64_t)d;
  borrow = (uint64_t)(d >> 64) & 1;
  r.v[3] = ONES - t.v[3] - borrow;
}

// a - b: on a borrow the wrapped result is 2^256 too large, i.e. FOLD too large mod p, so FOLD
// is taken off (again, in the rare case that this borrows too).
inline void fe_sub(Fe& r, const Fe& a, const Fe& b) {
  u128 d = (u128)a.v[0] - b.v[0];
  r.v[0] = (uint64_t)d;
  d = (u128)a.v[1] - b.v[1] - ((uint64_t)(d >> 64) & 1);
  r.v[1] = (uint64_t)d;
  d = (u128)a.v[2] - b.v[2] - ((uint64_t)(d >> 64) & 1);
  r.v[2] = (uint64_t)d;
  d = (u128)a.v[3] - b.v[3] - ((uint64_t)(d >> 64) & 1);
  r.v[3] = (uint64_t)d;
  uint64_t borrow = (uint64_t)(d >> 64) & 1;
  while (borrow) {
    d = (u128)r.v[0] - FOLD;
    r.v[0] = (uint64_t)d;
    d = (u128)r.v[1] - ((uint64_t)(d >> 64) & 1);
    r.v[1] = (uint64_t)d;
    d = (u128)r.v[2] - ((uint64_t)(d >> 64) & 1);
    r.v[2] = (uint64_t)d;
    d = (u128)r.v[3] - ((uint64_t)(d >> 64) & 1);
    r.v[3] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
}

// r = a * k for a small k (k < 2^32).
inline void fe_mul_small(Fe& r, const Fe& a, uint64_t k) {
  u128 t = (u128)a.v[0] * k;
  r.v[0] = (uint64_t)t;
  t = (t >> 64) + (u128)a.v[1] * k;
  r.v[1] = (uint64_t)t;
  t = (t >> 64) + (u128)a.v[2] * k;
  r.v[2] = (uint64_t)t;
  t = (t >> 64) + (u128)a.v[3] * k;
  r.v[3] = (uint64_t)t;
  fe_fold(r, (uint64_t)(t >> 64));
}

// Reduces the 512-bit product lo + 2^256 * hi: hi * FOLD is at most 2^290, so after the first
// pass the excess above 2^256 fits in 34 bits and fe_fold finishes the job.
inline void fe_reduce512(Fe& r, const uint64_t t[8]) {
  u128 acc = (u128)t[4] * FOLD + t[0];
  r.v[0] = (uint64_t)acc;
  acc = (acc >> 64) + (u128)t[5] * FOLD + t[1];
  r.v[1] = (uint64_t)acc;
  acc = (acc >> 64) + (u128)t[6] * FOLD + t[2];
  r.v[2] = (uint64_t)acc;
  acc = (acc >> 64) + (u128)t[7] * FOLD + t[3];
  r.v[3] = (uint64_t)acc;
  fe_fold(r, (uint64_t)(acc >> 64));
}

// Column-wise (product scanning) multiplication: the products of one output limb are summed in a
// 192-bit accumulator (c0, c1, c2) before the limb is written.
struct Acc {
  uint64_t c0 = 0, c1 = 0, c2 = 0;
  // Adds ab. Its high word is at most 2^64 - 2, so adding the carry out of c0 cannot wrap it.
  inline void muladd(uint64_t a, uint64_t b) {
    u128 t = (u128)a * b;
    uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
    c0 += lo;
    hi += (c0 < lo);
    c1 += hi;
    c2 += (c1 < hi);
  }
  // Adds 2ab (the cross products of a square). 2ab takes 129 bits, its top bit goes straight
  // to c2. Unlike in muladd, the doubled high word can be all ones (a product with high word
  // 2^63 - 1 and low bit 63 set), so the carry out of c0 may wrap it to zero: that carry then
  // belongs in c2, or a square is off by 2^(64k + 128) (issue 16).
  inline void muladd2(uint64_t a, uint64_t b) {
    u128 t = (u128)a * b;
    uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
    c2 += hi >> 63;
    hi = (hi << 1) | (lo >> 63);
    lo <<= 1;
    c0 += lo;
    const uint64_t carry = (c0 < lo);
    hi += carry;
    c2 += carry & (hi == 0);
    c1 += hi;
    c2 += (c1 < hi);
  }
  inline uint64_t extract() {
    uint64_t r = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
    return r;
  }
};

inline void fe_mul(Fe& r, const Fe& a, const Fe& b) {
  const uint64_t *x = a.v, *y = b.v;
  uint64_t t[8];
  Acc c;
  c.muladd(x[0], y[0]);
  t[0] = c.extract();
  c.muladd(x[0], y[1]);
  c.muladd(x[1], y[0]);
  t[1] = c.extract();
  c.muladd(x[0], y[2]);
  c.muladd(x[1], y[1]);
  c.muladd(x[2], y[0]);
  t[2] = c.extract();
  c.muladd(x[0], y[3]);
  c.muladd(x[1], y[2]);
  c.muladd(x[2], y[1]);
  c.muladd(x[3], y[0]);
  t[3] = c.extract();
  c.muladd(x[1], y[3]);
  c.muladd(x[2], y[2]);
  c.muladd(x[3], y[1]);
  t[4] = c.extract();
  c.muladd(x[2], y[3]);
  c.muladd(x[3], y[2]);
  t[5] = c.extract();
  c.muladd(x[3], y[3]);
  t[6] = c.extract();
  t[7] = c.c0;
  fe_reduce512(r, t);
}

inline void fe_sqr(Fe& r, const Fe& a) {
  const uint64_t* x = a.v;
  uint64_t t[8];
  Acc c;
  c.muladd(x[0], x[0]);
  t[0] = c.extract();
  c.muladd2(x[0], x[1]);
  t[1] = c.extract();
  c.muladd2(x[0], x[2]);
  c.muladd(x[1], x[1]);
  t[2] = c.extract();
  c.muladd2(x[0], x[3]);
  c.muladd2(x[1], x[2]);
  t[3] = c.extract();
  c.muladd2(x[1], x[3]);
  c.muladd(x[2], x[2]);
  t[4] = c.extract();
  c.muladd2(x[2], x[3]);
  t[5] = c.extract();
  c.muladd(x[3], x[3]);
  t[6] = c.extract();
  t[7] = c.c0;
  fe_reduce512(r, t);
}

inline void fe_sqr_n(Fe& r, const Fe& a, int n) {
  r = a;
  for (int i = 0; i < n; i++) fe_sqr(r, r);
}

// a^(2^k - 1) for the k of the chain below, shared by the square root and the inverse.
struct Powers {
  Fe x1, x2, x3, x22, x223;
};

inline void fe_powers(Powers& w, const Fe& a) {
  Fe t, x6, x9, x11, x44, x88, x176, x220;
  w.x1 = a;
  fe_sqr(t, a);
  fe_mul(w.x2, t, a);
  fe_sqr(t, w.x2);
  fe_mul(w.x3, t, a);
  fe_sqr_n(t, w.x3, 3);
  fe_mul(x6, t, w.x3);
  fe_sqr_n(t, x6, 3);
  fe_mul(x9, t, w.x3);
  fe_sqr_n(t, x9, 2);
  fe_mul(x11, t, w.x2);
  fe_sqr_n(t, x11, 11);
  fe_mul(w.x22, t, x11);
  fe_sqr_n(t, w.x22, 22);
  fe_mul(x44, t, w.x22);
  fe_sqr_n(t, x44, 44);
  fe_mul(x88, t, x44);
  fe_sqr_n(t, x88, 88);
  fe_mul(x176, t, x88);
  fe_sqr_n(t, x176, 44);
  fe_mul(x220, t, x44);
  fe_sqr_n(t, x220, 3);
  fe_mul(w.x223, t, w.x3);
}

// Square root: a^((p+1)/4), whose bits are 223 ones, a zero, 22 ones, then 00001100. Because
// the exponent is even, the root found is itself a square (the "QR" root). Returns false when
// a has no square root.
inline bool fe_sqrt(Fe& r, const Fe& a) {
  Powers w;
  fe_powers(w, a);
  Fe t;
  fe_sqr_n(t, w.x223, 23);
  fe_mul(t, t, w.x22);
  fe_sqr_n(t, t, 6);
  fe_mul(t, t, w.x2);
  fe_sqr_n(r, t, 2);
  Fe check;
  fe_sqr(check, r);
  return fe_equal(check, a);
}

// Inverse by Fermat: a^(p-2), bits 223 ones, a zero, 22 ones, then 0000101101. a must not be 0.
inline void fe_inv(Fe& r, const Fe& a) {
  Powers w;
  fe_powers(w, a);
  Fe t;
  fe_sqr_n(t, w.x223, 23);
  fe_mul(t, t, w.x22);
  fe_sqr_n(t, t, 5);
  fe_mul(t, t, w.x1);
  fe_sqr_n(t, t, 3);
  fe_mul(t, t, w.x2);
  fe_sqr_n(t, t, 2);
  fe_mul(r, t, w.x1);
}

// Big-endian bytes -> element; false when the value is not below p.
inline bool fe_from_bytes(Fe& r, const uint8_t* b) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = 0;
    for (int k = 0; k < 8; k++) w = (w << 8) | b[8 * (3 - i) + k];
    r.v[i] = w;
  }
  return !(r.v[3] == ONES && r.v[2] == ONES && r.v[1] == ONES && r.v[0] >= P0);
}

inline void fe_to_bytes(uint8_t* b, const Fe& a) {
  Fe t = a;
  fe_normalize(t);
  for (int i = 0; i < 4; i++) {
    uint64_t w = t.v[i];
    for (int k = 7; k >= 0; k--) {
      b[8 * (3 - i) + k] = (uint8_t)w;
      w >>= 8;
    }
  }
}

inline bool fe_is_odd(const Fe& a) {
  Fe t = a;
  fe_normalize(t);
  return (t.v[0] & 1) != 0;
}

}  // namespace msm
