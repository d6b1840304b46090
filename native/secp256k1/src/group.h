// Points of secp256k1 (y^2 = x^3 + 7): affine points (never infinity here) and Jacobian points
// (X/Z^2, Y/Z^3) with an explicit infinity flag; decoding of the compressed encodings the
// verifiers use. Variable time, like field.h.
#pragma once
#include "field.h"

namespace msm {

struct Ge {
  Fe x, y;
};

struct Gej {
  Fe x, y, z;
  bool inf;
};

inline void gej_set_inf(Gej& r) {
  r.inf = true;
  fe_set_u64(r.x, 0);
  fe_set_u64(r.y, 1);
  fe_set_u64(r.z, 0);
}

inline void gej_set_ge(Gej& r, const Ge& a) {
  r.x = a.x;
  r.y = a.y;
  fe_set_u64(r.z, 1);
  r.inf = false;
}

// Doubling for a = 0 ("dbl-2009-l"). secp256k1 has no point of order two, so Y is never 0.
inline void gej_double(Gej& r, const Gej& a) {
  if (a.inf) {
    r = a;
    return;
  }
  Fe A, B, C, D, E, F, t;
  fe_sqr(A, a.x);
  fe_sqr(B, a.y);
  fe_sqr(C, B);
  fe_add(t, a.x, B);
  fe_sqr(t, t);
  fe_sub(t, t, A);
  fe_sub(t, t, C);
  fe_add(D, t, t);
  fe_mul_small(E, A, 3);
  fe_sqr(F, E);
  Fe z3;
  fe_mul(z3, a.y, a.z);
  fe_add(r.z, z3, z3);
  Fe x3;
  fe_add(t, D, D);
  fe_sub(x3, F, t);
  fe_sub(t, D, x3);
  fe_mul(t, E, t);
  fe_mul_small(C, C, 8);
  fe_sub(r.y, t, C);
  r.x = x3;
  r.inf = false;
}

// r = a + b with b affine ("madd"): 8 multiplications and 3 squarings; equal inputs fall back
// to doubling, opposite ones give infinity. r may alias a.
inline void gej_add_ge(Gej& r, const Gej& a, const Ge& b) {
  if (a.inf) {
    gej_set_ge(r, b);
    return;
  }
  Fe zz, u2, s2, h, rr;
  fe_sqr(zz, a.z);
  fe_mul(u2, b.x, zz);
  fe_mul(s2, b.y, zz);
  fe_mul(s2, s2, a.z);
  fe_sub(h, u2, a.x);
  fe_sub(rr, s2, a.y);
  if (fe_is_zero(h)) {
    if (fe_is_zero(rr)) {
      gej_double(r, a);
    } else {
      gej_set_inf(r);
    }
    return;
  }
  Fe hh, hhh, v, t;
  fe_sqr(hh, h);
  fe_mul(hhh, h, hh);
  fe_mul(v, a.x, hh);
  fe_mul(r.z, a.z, h);
  Fe x3;
  fe_sqr(x3, rr);
  fe_sub(x3, x3, hhh);
  fe_add(t, v, v);
  fe_sub(x3, x3, t);
  fe_sub(t, v, x3);
  fe_mul(t, rr, t);
  Fe yh;
  fe_mul(yh, a.y, hhh);
  fe_sub(r.y, t, yh);
  r.x = x3;
  r.inf = false;
}

// r = a + b, both Jacobian: 12 multiplications and 4 squarings. r may alias a or b.
inline void gej_add(Gej& r, const Gej& a, const Gej& b) {
  if (a.inf) {
    r = b;
    return;
  }
  if (b.inf) {
    r = a;
    return;
  }
  Fe z1z1, z2z2, u1, u2, s1, s2, h, rr;
  fe_sqr(z1z1, a.z);
  fe_sqr(z2z2, b.z);
  fe_mul(u1, a.x, z2z2);
  fe_mul(u2, b.x, z1z1);
  fe_mul(s1, a.y, b.z);
  fe_mul(s1, s1, z2z2);
  fe_mul(s2, b.y, a.z);
  fe_mul(s2, s2, z1z1);
  fe_sub(h, u2, u1);
  fe_sub(rr, s2, s1);
  if (fe_is_zero(h)) {
    if (fe_is_zero(rr)) {
      gej_double(r, a);
    } else {
      gej_set_inf(r);
    }
    return;
  }
  Fe hh, hhh, v, t, z3;
  fe_sqr(hh, h);
  fe_mul(hhh, h, hh);
  fe_mul(v, u1, hh);
  fe_mul(z3, a.z, b.z);
  fe_mul(z3, z3, h);
  Fe x3;
  fe_sqr(x3, rr);
  fe_sub(x3, x3, hhh);
  fe_add(t, v, v);
  fe_sub(x3, x3, t);
  fe_sub(t, v, x3);
  fe_mul(t, rr, t);
  fe_mul(s1, s1, hhh);
  fe_sub(r.y, t, s1);
  r.x = x3;
  r.z = z3;
  r.inf = false;
}

// y for x on the curve, choosing the square root that is itself a square; false if x^3 + 7
// has no root.
inline bool ge_lift_qr(Ge& r, const Fe& x) {
  Fe t, seven;
  fe_sqr(t, x);
  fe_mul(t, t, x);
  fe_set_u64(seven, 7);
  fe_add(t, t, seven);
  if (!fe_sqrt(r.y, t)) return false;
  r.x = x;
  fe_normalize(r.x);
  fe_normalize(r.y);
  return true;
}

// Decodes a 33-byte encoding: 02/03 = even/odd y, 08/09 = y a square / not a square (the
// commitment rule, also the bulletproof flag rule). x must be below p. False if undecodable.
inline bool ge_decode33(Ge& r, const uint8_t* in) {
  uint8_t tag = in[0];
  if (tag != 0x02 && tag != 0x03 && tag != 0x08 && tag != 0x09) return false;
  Fe x;
  if (!fe_from_bytes(x, in + 1)) return false;
  if (!ge_lift_qr(r, x)) return false;
  bool negate = (tag == 0x02 || tag == 0x03) ? (fe_is_odd(r.y) != (tag == 0x03)) : (tag == 0x09);
  if (negate) fe_neg(r.y, r.y);
  fe_normalize(r.y);
  return true;
}

// 64 bytes x || y; false if not a canonical point on the curve.
inline bool ge_from_xy(Ge& r, const uint8_t* in) {
  if (!fe_from_bytes(r.x, in) || !fe_from_bytes(r.y, in + 32)) return false;
  Fe lhs, rhs, seven;
  fe_sqr(lhs, r.y);
  fe_sqr(rhs, r.x);
  fe_mul(rhs, rhs, r.x);
  fe_set_u64(seven, 7);
  fe_add(rhs, rhs, seven);
  return fe_equal(lhs, rhs);
}

}  // namespace msm
