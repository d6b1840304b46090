// Pippenger's bucket method: each scalar is cut into signed c-bit digits in
// (-2^(c-1), 2^(c-1)]; per window, every point is added (or its negation subtracted) into the
// bucket of its digit's magnitude, and the buckets are combined as sum_b b * B_b by running
// sums. Windows are processed from the top, with c doublings between them. The width c is
// chosen by a cost model in field operations, so that few points use narrow windows.
#include "msm.h"

namespace msm {

namespace {

const uint64_t N[4] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL,
                       0xFFFFFFFFFFFFFFFFULL};

bool scalar_ge_n(const Scalar& s) {
  for (int i = 3; i >= 0; i--) {
    if (s.v[i] != N[i]) return s.v[i] > N[i];
  }
  return true;
}

int scalar_bits(const Scalar& s) {
  for (int i = 3; i >= 0; i--) {
    if (s.v[i] != 0) return 64 * i + 64 - __builtin_clzll(s.v[i]);
  }
  return 0;
}

// Bits [pos, pos + width) of s (width <= 32); bits beyond 255 read as zero.
uint32_t scalar_window(const Scalar& s, int pos, int width) {
  if (pos >= 256) return 0;
  int limb = pos >> 6;
  int shift = pos & 63;
  uint64_t w = s.v[limb] >> shift;
  if (shift + width > 64 && limb < 3) w |= s.v[limb + 1] << (64 - shift);
  return (uint32_t)(w & ((1ULL << width) - 1));
}

// Field-operation estimate of one window of width c, in units of a multiplication: a mixed
// addition (~11) per point, two general additions (~16 each) per bucket.
double window_cost(size_t points, int c) { return 11.0 * points + 32.0 * (1 << (c - 1)); }

int choose_width(size_t points, int bits) {
  int best = 1;
  double best_cost = 1e300;
  for (int c = 1; c <= 16; c++) {
    double cost = (bits / c + 1) * window_cost(points, c);
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

}  // namespace

void scalar_from_bytes(Scalar& r, const uint8_t* b) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = 0;
    for (int k = 0; k < 8; k++) w = (w << 8) | b[8 * (3 - i) + k];
    r.v[i] = w;
  }
  if (scalar_ge_n(r)) {
    u128 borrow = 0;
    for (int i = 0; i < 4; i++) {
      u128 d = (u128)r.v[i] - N[i] - borrow;
      r.v[i] = (uint64_t)d;
      borrow = (d >> 64) & 1;
    }
  }
}

void gej_to_ge(Ge& r, const Gej& a) {
  Fe zi, zi2, zi3;
  fe_inv(zi, a.z);
  fe_sqr(zi2, zi);
  fe_mul(zi3, zi2, zi);
  fe_mul(r.x, a.x, zi2);
  fe_mul(r.y, a.y, zi3);
  fe_normalize(r.x);
  fe_normalize(r.y);
}

void multi_mul(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars) {
  gej_set_inf(r);
  const size_t n = points.size();
  int bits = 0;
  for (const Scalar& s : scalars) {
    int b = scalar_bits(s);
    if (b > bits) bits = b;
  }
  if (n == 0 || bits == 0) return;
  const int c = choose_width(n, bits);
  const int windows = bits / c + 1;  // one more for the final carry of the signed digits
  std::vector<int32_t> digits((size_t)windows * n);
  for (size_t k = 0; k < n; k++) {
    uint32_t carry = 0;
    for (int w = 0; w < windows; w++) {
      int32_t d = (int32_t)(scalar_window(scalars[k], w * c, c) + carry);
      carry = 0;
      if (d > (1 << (c - 1))) {
        d -= 1 << c;
        carry = 1;
      }
      digits[(size_t)w * n + k] = d;
    }
  }
  std::vector<Ge> neg(n);
  for (size_t k = 0; k < n; k++) {
    neg[k].x = points[k].x;
    fe_neg(neg[k].y, points[k].y);
  }
  std::vector<Gej> buckets((size_t)1 << (c - 1));
  for (int w = windows - 1; w >= 0; w--) {
    for (int i = 0; i < c; i++) gej_double(r, r);
    for (Gej& b : buckets) b.inf = true;
    const int32_t* row = &digits[(size_t)w * n];
    for (size_t k = 0; k < n; k++) {
      int32_t d = row[k];
      if (d > 0) {
        gej_add_ge(buckets[d - 1], buckets[d - 1], points[k]);
      } else if (d < 0) {
        gej_add_ge(buckets[-d - 1], buckets[-d - 1], neg[k]);
      }
    }
    Gej running, sum;
    gej_set_inf(running);
    gej_set_inf(sum);
    for (size_t b = buckets.size(); b-- > 0;) {
      gej_add(running, running, buckets[b]);
      gej_add(sum, sum, running);
    }
    gej_add(r, r, sum);
  }
}

}  // namespace msm
