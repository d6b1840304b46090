// Scalar algebra of the bulletproof batch verifier. Equation E1 (range) carries weight w1 and
// E2 (inner product) w2; the G_i / H_i scalars of E2 use the fold products
// g_i = prod_j x_j^(+1 if bit (4-j) of i is set, else -1), with g_(31-i) = 1/g_i.
#include "bulletproof.h"

#include <vector>

#include "msm.h"
#include "scalar.h"

namespace msm {

namespace {

const int BITS = 64;
const int ROUNDS = 5;

struct Record {
  Scalar y, z, x, u, xs[ROUNDS], t, taux_neg, mu_neg, a1, a2, b1, b2, w1, w2;
};

void read_record(Record& r, const uint8_t* b) {
  Scalar* order[BP_RECORD_SCALARS] = {&r.y,  &r.z,     &r.x,      &r.u,      &r.xs[0], &r.xs[1],
                                      &r.xs[2], &r.xs[3], &r.xs[4], &r.t,      &r.taux_neg,
                                      &r.mu_neg, &r.a1,   &r.a2,     &r.b1,     &r.b2,    &r.w1,
                                      &r.w2};
  for (size_t i = 0; i < BP_RECORD_SCALARS; i++) scalar_from_bytes(*order[i], b + 32 * i);
}

Scalar mul(const Scalar& a, const Scalar& b) {
  Scalar r;
  sc_mul(r, a, b);
  return r;
}
Scalar add(const Scalar& a, const Scalar& b) {
  Scalar r;
  sc_add(r, a, b);
  return r;
}
Scalar sub(const Scalar& a, const Scalar& b) {
  Scalar r;
  sc_sub(r, a, b);
  return r;
}
Scalar small(uint64_t v) {
  Scalar r;
  sc_set_u64(r, v);
  return r;
}

// g has 32 entries indexed by the five fold bits: entry i multiplies x_j or 1/x_j for each
// round j, the bit of round j being bit (4 - j) of i.
void fold_products(Scalar g[32], const Scalar* xs, const Scalar* x_invs) {
  int size = 1;
  g[0] = small(1);
  for (int j = ROUNDS - 1; j >= 0; j--) {
    for (int i = size - 1; i >= 0; i--) {
      Scalar v = g[i];
      g[2 * i] = mul(v, x_invs[j]);
      g[2 * i + 1] = mul(v, xs[j]);
    }
    size *= 2;
  }
}

// Adds proof p's 15 point scalars to `scalars` and its fixed-generator terms to `fixed`.
void proof_terms(const Record& p, const Scalar& y_inv, const Scalar* x_invs, Scalar* scalars,
                 Scalar* fixed) {
  Scalar zz = mul(p.z, p.z), xx = mul(p.x, p.x);
  Scalar y_sum = small(0), y_pow = small(1);
  for (int i = 0; i < BITS; i++) {
    y_sum = add(y_sum, y_pow);
    y_pow = mul(y_pow, p.y);
  }
  Scalar ones = small(~0ULL);  // 2^64 - 1
  Scalar delta = sub(mul(sub(p.z, zz), y_sum), mul(mul(zz, p.z), ones));
  scalars[0] = mul(p.w1, zz);
  scalars[1] = p.w2;
  scalars[2] = mul(p.w2, p.x);
  scalars[3] = mul(p.w1, p.x);
  scalars[4] = mul(p.w1, xx);
  for (int j = 0; j < ROUNDS; j++) {
    scalars[5 + 2 * j] = mul(p.w2, mul(p.xs[j], p.xs[j]));
    scalars[6 + 2 * j] = mul(p.w2, mul(x_invs[j], x_invs[j]));
  }
  Scalar u_term = mul(p.u, sub(sub(p.t, mul(p.a1, p.b1)), mul(p.a2, p.b2)));
  Scalar& fg = fixed[2 * BITS];
  Scalar& fh = fixed[2 * BITS + 1];
  fg = add(fg, add(mul(p.w1, p.taux_neg), mul(p.w2, add(p.mu_neg, u_term))));
  fh = add(fh, mul(p.w1, sub(delta, p.t)));

  Scalar g[32];
  fold_products(g, p.xs, x_invs);
  Scalar w2z = mul(p.w2, p.z), w2zz = mul(w2z, p.z);
  Scalar wa[2] = {mul(p.w2, p.a1), mul(p.w2, p.a2)};
  Scalar wb[2] = {mul(p.w2, p.b1), mul(p.w2, p.b2)};
  Scalar y_inv_pow = small(1);
  Scalar w2zz_two_pow = w2zz;  // w2 z^2 2^i, doubled each step
  for (int i = 0; i < BITS; i++) {
    int f = i >> 5;
    const Scalar& gi = g[i & 31];
    const Scalar& gi_inv = g[31 - (i & 31)];
    // G_i: -w2 z - w2 a_f g_i; H_i: w2 z + y^-i (w2 z^2 2^i - w2 b_f / g_i)
    fixed[i] = sub(sub(fixed[i], w2z), mul(wa[f], gi));
    Scalar h_part = sub(w2zz_two_pow, mul(wb[f], gi_inv));
    w2zz_two_pow = add(w2zz_two_pow, w2zz_two_pow);
    fixed[BITS + i] = add(add(fixed[BITS + i], w2z), mul(y_inv_pow, h_part));
    y_inv_pow = mul(y_inv_pow, y_inv);
  }
}

}  // namespace

long bulletproof_batch(const uint8_t* records, size_t k, const uint8_t* points,
                       const uint8_t* generators) {
  const size_t total = k * BP_POINTS + BP_FIXED;
  std::vector<Ge> ge(total);
  for (size_t i = 0; i < total; i++) {
    const uint8_t* src = i < k * BP_POINTS ? points + 64 * i : generators + 64 * (i - k * BP_POINTS);
    if (!ge_from_xy(ge[i], src)) return -1 - (long)i;
  }
  std::vector<Record> recs(k);
  std::vector<Scalar> inv(k * (1 + ROUNDS));
  for (size_t p = 0; p < k; p++) {
    read_record(recs[p], records + 32 * BP_RECORD_SCALARS * p);
    inv[p * (1 + ROUNDS)] = recs[p].y;
    for (int j = 0; j < ROUNDS; j++) inv[p * (1 + ROUNDS) + 1 + j] = recs[p].xs[j];
  }
  if (!sc_inv_all(inv.data(), inv.size())) return -2 - (long)total;
  std::vector<Scalar> scalars(total);
  Scalar* fixed = &scalars[k * BP_POINTS];
  for (size_t i = 0; i < BP_FIXED; i++) sc_set_u64(fixed[i], 0);
  for (size_t p = 0; p < k; p++) {
    const Scalar* pinv = &inv[p * (1 + ROUNDS)];
    proof_terms(recs[p], pinv[0], pinv + 1, &scalars[p * BP_POINTS], fixed);
  }
  Gej sum;
  const size_t own = k * BP_POINTS;
  std::shared_ptr<const FixedTables> tables;
  // Few proofs: the generators' precomputed tables make Strauss cheaper than Pippenger.
  if (fixed_strauss_cost(own, BP_FIXED) < pippenger_estimate(total)) {
    tables = fixed_tables(generators, BP_FIXED);
  }
  if (tables) {
    ge.resize(own);
    multi_mul_fixed(sum, ge, std::vector<Scalar>(scalars.begin(), scalars.begin() + own), *tables,
                    &scalars[own]);
  } else {
    multi_mul(sum, ge, scalars);
  }
  return sum.inf || fe_is_zero(sum.z) ? 1 : 0;
}

}  // namespace msm
