// Multi-scalar multiplication, by one of two methods chosen by a cost model in field
// multiplications:
//  - few points: Strauss, one doubling chain shared by all points, each adding its width-5 NAF
//    digits from a table of odd multiples (made affine with one shared inversion);
//  - many points: Pippenger's bucket method. Each scalar is cut into signed c-bit digits in
//    (-2^(c-1), 2^(c-1)]; per window, every point is added (or its negation subtracted) into
//    the bucket of its digit's magnitude, and the buckets are combined as sum_b b * B_b by
//    running sums. Windows go from the top, with c doublings between them.
#include "msm.h"

#include <cstring>
#include <mutex>

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

// Pippenger's estimated cost at its best width, in multiplications.
double pippenger_cost(size_t points, int bits, int* width) {
  int best = 1;
  double best_cost = 1e300;
  for (int c = 1; c <= 16; c++) {
    double cost = (bits / c + 1) * window_cost(points, c);
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  if (width) *width = best;
  return best_cost;
}

const int WNAF_W = 5;                     // digits odd, |d| < 16: tables of 8 odd multiples
const int TABLE = 1 << (WNAF_W - 2);      // 8
const int WNAF_LEN = 258;
const int FIXED_W = FIXED_WINDOW;

// Strauss' cost: one doubling (~9) per bit, a mixed addition (~11) per non-zero digit (one in
// about WNAF_W + 1 bits), the tables (7 general additions and a doubling per point) and their
// conversion to affine (one shared inversion, ~6 multiplications per entry).
double strauss_cost(size_t points, int bits) {
  return 9.0 * bits + points * (11.0 * bits / (WNAF_W + 1) + 7 * 16 + 9 + 6 * TABLE) + 270;
}

// Width-w NAF of s: digits[i] is 0 or odd with |digits[i]| < 2^(w-1), sum digits[i] 2^i = s.
// Returns one past the highest non-zero position.
int wnaf(int8_t* digits, const Scalar& s, int w) {
  for (int i = 0; i < WNAF_LEN; i++) digits[i] = 0;
  int bit = 0, top = 0;
  uint32_t carry = 0;
  while (bit < 257) {
    if (scalar_window(s, bit, 1) == carry) {
      bit++;
      continue;
    }
    int32_t word = (int32_t)(scalar_window(s, bit, w) + carry);
    carry = (word >> (w - 1)) & 1;
    word -= (int32_t)(carry << w);
    digits[bit] = (int8_t)word;
    top = bit + 1;
    bit += w;
  }
  return top;
}

// Affine forms of many Jacobian points (none infinite) with one inversion.
void to_affine_all(Ge* out, const Gej* in, size_t count) {
  std::vector<Fe> prefix(count);
  Fe acc;
  fe_set_u64(acc, 1);
  for (size_t i = 0; i < count; i++) {
    prefix[i] = acc;
    fe_mul(acc, acc, in[i].z);
  }
  Fe inv;
  fe_inv(inv, acc);
  for (size_t i = count; i-- > 0;) {
    Fe zi, zi2, zi3;
    fe_mul(zi, inv, prefix[i]);
    fe_mul(inv, inv, in[i].z);
    fe_sqr(zi2, zi);
    fe_mul(zi3, zi2, zi);
    fe_mul(out[i].x, in[i].x, zi2);
    fe_mul(out[i].y, in[i].y, zi3);
  }
}

// Odd multiples P, 3P, ..., (2 size - 1)P of every point, affine, `size` per point. A multiple
// is infinite only if the point's order divides it: impossible for odd multiples below the
// prime group order, so every Z is invertible.
void odd_multiples(Ge* out, const Ge* points, size_t n, int size) {
  std::vector<Gej> jac(n * size);
  for (size_t k = 0; k < n; k++) {
    Gej p2;
    gej_set_ge(jac[k * size], points[k]);
    gej_double(p2, jac[k * size]);
    for (int i = 1; i < size; i++) gej_add(jac[k * size + i], jac[k * size + i - 1], p2);
  }
  to_affine_all(out, jac.data(), jac.size());
}

// One Strauss term: a scalar's NAF digits and the table of its point's odd multiples.
struct Term {
  const Ge* table;
  const int8_t* digits;
};

// The shared doubling chain: from the highest digit down, double, then add each term's digit.
void strauss_terms(Gej& r, const std::vector<Term>& terms, int top) {
  gej_set_inf(r);
  for (int bit = top - 1; bit >= 0; bit--) {
    gej_double(r, r);
    for (const Term& t : terms) {
      int d = t.digits[bit];
      if (d > 0) {
        gej_add_ge(r, r, t.table[(d - 1) / 2]);
      } else if (d < 0) {
        Ge neg = t.table[(-d - 1) / 2];
        fe_neg(neg.y, neg.y);
        gej_add_ge(r, r, neg);
      }
    }
  }
}

// Strauss over points with per-call width-5 tables, plus optional fixed points with their
// precomputed width-FIXED_W tables.
void strauss(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars,
             const FixedTables* fixed = nullptr, const Scalar* fixed_scalars = nullptr) {
  const size_t n = points.size();
  const size_t m = fixed == nullptr ? 0 : fixed->count;
  std::vector<Ge> table(n * TABLE);
  odd_multiples(table.data(), points.data(), n, TABLE);
  std::vector<int8_t> digits((n + m) * WNAF_LEN);
  std::vector<Term> terms;
  int top = 0;
  for (size_t k = 0; k < n + m; k++) {
    const bool own = k < n;
    int8_t* d = &digits[k * WNAF_LEN];
    int t = own ? wnaf(d, scalars[k], WNAF_W) : wnaf(d, fixed_scalars[k - n], FIXED_W);
    if (t == 0) continue;
    if (t > top) top = t;
    terms.push_back({own ? &table[k * TABLE] : &fixed->entries[(k - n) * FIXED_TABLE], d});
  }
  strauss_terms(r, terms, top);
}

}  // namespace

std::shared_ptr<const FixedTables> fixed_tables(const uint8_t* xy, size_t count) {
  // One cache per process, shared by worker threads: the generator set never changes in
  // practice, so one entry suffices; a different set replaces it (callers keep their pointer).
  static std::mutex lock;
  static std::shared_ptr<const FixedTables> cached;
  std::lock_guard<std::mutex> guard(lock);
  if (cached && cached->key.size() == 64 * count &&
      std::memcmp(cached->key.data(), xy, 64 * count) == 0)
    return cached;
  auto built = std::make_shared<FixedTables>();
  std::vector<Ge> points(count);
  for (size_t i = 0; i < count; i++) {
    if (!ge_from_xy(points[i], xy + 64 * i)) return nullptr;
  }
  built->count = count;
  built->key.assign(xy, xy + 64 * count);
  built->entries.resize(count * FIXED_TABLE);
  odd_multiples(built->entries.data(), points.data(), count, FIXED_TABLE);
  cached = built;
  return cached;
}

double fixed_strauss_cost(size_t points, size_t fixed) {
  return strauss_cost(points, 256) + fixed * 11.0 * 256 / (FIXED_W + 1);
}

double pippenger_estimate(size_t points) { return pippenger_cost(points, 256, nullptr); }

void multi_mul_fixed(Gej& r, const std::vector<Ge>& points, const std::vector<Scalar>& scalars,
                     const FixedTables& fixed, const Scalar* fixed_scalars) {
  strauss(r, points, scalars, &fixed, fixed_scalars);
}


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
  if (strauss_cost(n, bits) < pippenger_cost(n, bits, nullptr)) {
    strauss(r, points, scalars);
    return;
  }
  int c = 1;
  pippenger_cost(n, bits, &c);
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
