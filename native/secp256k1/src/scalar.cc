// Scalars mod n = 2^256 - NC, NC = 2^256 - n (129 bits). A 512-bit product is folded as
// lo + hi * NC until it fits in 256 bits (three rounds at most), then n is subtracted while
// the value is still >= n.
#include "scalar.h"

#include <vector>

#include "field.h"

namespace msm {

namespace {

const uint64_t N[4] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL,
                       0xFFFFFFFFFFFFFFFFULL};
const uint64_t NC[3] = {0x402DA1732FC9BEBFULL, 0x4551231950B75FC4ULL, 0x1ULL};

bool geq_n(const uint64_t* a) {
  for (int i = 3; i >= 0; i--) {
    if (a[i] != N[i]) return a[i] > N[i];
  }
  return true;
}

void sub_n(uint64_t* a) {
  u128 borrow = 0;
  for (int i = 0; i < 4; i++) {
    u128 d = (u128)a[i] - N[i] - borrow;
    a[i] = (uint64_t)d;
    borrow = (d >> 64) & 1;
  }
}

// Column-wise multiply-accumulate into a 192-bit accumulator (c0, c1, c2).
struct Acc {
  uint64_t c0 = 0, c1 = 0, c2 = 0;
  inline void muladd(uint64_t a, uint64_t b) {
    u128 t = (u128)a * b;
    uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
    c0 += lo;
    hi += (c0 < lo);
    c1 += hi;
    c2 += (c1 < hi);
  }
  inline void add(uint64_t a) {
    c0 += a;
    uint64_t over = (c0 < a);
    c1 += over;
    c2 += (c1 < over);
  }
  inline uint64_t extract() {
    uint64_t r = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
    return r;
  }
};

// Reduces the 512-bit t mod n: lo + hi * NC three times (NC has limbs NC0, NC1 and 1), each
// round shrinking the high part (256 -> 130 -> 4 bits), then at most one subtraction of n.
void reduce512(Scalar& r, const uint64_t* t) {
  const uint64_t h0 = t[4], h1 = t[5], h2 = t[6], h3 = t[7];
  uint64_t m[7];
  Acc c;
  c.add(t[0]);
  c.muladd(h0, NC[0]);
  m[0] = c.extract();
  c.add(t[1]);
  c.muladd(h1, NC[0]);
  c.muladd(h0, NC[1]);
  m[1] = c.extract();
  c.add(t[2]);
  c.muladd(h2, NC[0]);
  c.muladd(h1, NC[1]);
  c.add(h0);
  m[2] = c.extract();
  c.add(t[3]);
  c.muladd(h3, NC[0]);
  c.muladd(h2, NC[1]);
  c.add(h1);
  m[3] = c.extract();
  c.muladd(h3, NC[1]);
  c.add(h2);
  m[4] = c.extract();
  c.add(h3);
  m[5] = c.extract();
  m[6] = c.c0;
  // round 2: m[4..6] (at most 130 bits) times NC
  uint64_t p[5];
  c = Acc();
  c.add(m[0]);
  c.muladd(m[4], NC[0]);
  p[0] = c.extract();
  c.add(m[1]);
  c.muladd(m[5], NC[0]);
  c.muladd(m[4], NC[1]);
  p[1] = c.extract();
  c.add(m[2]);
  c.muladd(m[6], NC[0]);
  c.muladd(m[5], NC[1]);
  c.add(m[4]);
  p[2] = c.extract();
  c.add(m[3]);
  c.muladd(m[6], NC[1]);
  c.add(m[5]);
  p[3] = c.extract();
  c.add(m[6]);
  p[4] = c.extract();
  // round 3: p[4] (a few bits) times NC
  u128 acc = (u128)p[0] + (u128)p[4] * NC[0];
  r.v[0] = (uint64_t)acc;
  acc = (acc >> 64) + p[1] + (u128)p[4] * NC[1];
  r.v[1] = (uint64_t)acc;
  acc = (acc >> 64) + p[2] + p[4];
  r.v[2] = (uint64_t)acc;
  acc = (acc >> 64) + p[3];
  r.v[3] = (uint64_t)acc;
  uint64_t over = (uint64_t)(acc >> 64);
  // over is set only when the value reached 2^256, which is then below 2^256 + n: one
  // subtraction of n (wrapping through 2^256) brings it into range, as it does for >= n.
  if (over || geq_n(r.v)) sub_n(r.v);
}

}  // namespace

void sc_set_u64(Scalar& r, uint64_t v) {
  r.v[0] = v;
  r.v[1] = r.v[2] = r.v[3] = 0;
}

bool sc_is_zero(const Scalar& a) { return (a.v[0] | a.v[1] | a.v[2] | a.v[3]) == 0; }

void sc_add(Scalar& r, const Scalar& a, const Scalar& b) {
  u128 c = 0;
  for (int i = 0; i < 4; i++) {
    c += (u128)a.v[i] + b.v[i];
    r.v[i] = (uint64_t)c;
    c >>= 64;
  }
  // a + b < 2n: one subtraction of n when the sum reached n (or 2^256).
  if (c != 0 || geq_n(r.v)) sub_n(r.v);
}

void sc_sub(Scalar& r, const Scalar& a, const Scalar& b) {
  // a + (n - b); n - 0 = n reduces to 0.
  Scalar nb;
  u128 borrow = 0;
  for (int i = 0; i < 4; i++) {
    u128 d = (u128)N[i] - b.v[i] - borrow;
    nb.v[i] = (uint64_t)d;
    borrow = (d >> 64) & 1;
  }
  sc_add(r, a, nb);
}

void sc_mul(Scalar& r, const Scalar& a, const Scalar& b) {
  uint64_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    uint64_t carry = 0;
    for (int j = 0; j < 4; j++) {
      u128 p = (u128)a.v[i] * b.v[j] + t[i + j] + carry;
      t[i + j] = (uint64_t)p;
      carry = (uint64_t)(p >> 64);
    }
    t[i + 4] = carry;
  }
  reduce512(r, t);
}

void sc_inv(Scalar& r, const Scalar& a) {
  // Square-and-multiply over the bits of n - 2, from the top.
  uint64_t e[4] = {N[0] - 2, N[1], N[2], N[3]};
  Scalar acc;
  sc_set_u64(acc, 1);
  for (int bit = 255; bit >= 0; bit--) {
    sc_mul(acc, acc, acc);
    if ((e[bit >> 6] >> (bit & 63)) & 1) sc_mul(acc, acc, a);
  }
  r = acc;
}

bool sc_inv_all(Scalar* v, size_t count) {
  if (count == 0) return true;
  std::vector<Scalar> prefix(count);
  Scalar acc;
  sc_set_u64(acc, 1);
  for (size_t i = 0; i < count; i++) {
    if (sc_is_zero(v[i])) return false;
    prefix[i] = acc;
    sc_mul(acc, acc, v[i]);
  }
  Scalar inv;
  sc_inv(inv, acc);
  for (size_t i = count; i-- > 0;) {
    Scalar vi = v[i];
    sc_mul(v[i], inv, prefix[i]);
    sc_mul(inv, inv, vi);
  }
  return true;
}

void sc_to_bytes(uint8_t* out, const Scalar& a) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = a.v[i];
    for (int k = 7; k >= 0; k--) {
      out[8 * (3 - i) + k] = (uint8_t)w;
      w >>= 8;
    }
  }
}

}  // namespace msm
