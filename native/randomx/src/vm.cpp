#include "vm.hpp"

#include <cfenv>
#include <cmath>
#include <cstring>

#include "bytes.hpp"

namespace rx {

namespace {

constexpr uint32_t kLineMask = uint32_t((kDatasetBaseSize - 1) & ~uint64_t(kItemSize - 1));
constexpr uint32_t kL3LineMask = kScratchpadL3 - kItemSize;
// Sign and top exponent bits are replaced by the E mask; the low 4 exponent
// bits and the fraction stay.
constexpr uint64_t kEKeepMask = (1ULL << 56) - 1;

inline double bits_to_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

inline uint64_t double_to_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// Two signed 32-bit integers -> two doubles (exact).
inline FpPair load_f(const uint8_t* p) {
  return FpPair{double(int32_t(load_le32(p))), double(int32_t(load_le32(p + 4)))};
}

inline FpPair load_e(const uint8_t* p, const uint64_t mask[2]) {
  FpPair v = load_f(p);
  v.lo = bits_to_double((double_to_bits(v.lo) & kEKeepMask) | mask[0]);
  v.hi = bits_to_double((double_to_bits(v.hi) & kEKeepMask) | mask[1]);
  return v;
}

inline uint64_t mul_hi(uint64_t a, uint64_t b) { return uint64_t((unsigned __int128)a * b >> 64); }

inline uint64_t smul_hi(uint64_t a, uint64_t b) {
  uint64_t hi = mul_hi(a, b);
  if (a >> 63) hi -= b;
  if (b >> 63) hi -= a;
  return hi;
}

const int kRoundModes[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};

}  // namespace

void register_file_bytes(const RegisterFile& rf, uint8_t out[kRegisterFileBytes]) {
  for (int i = 0; i < 8; ++i) store_le64(out + 8 * i, rf.r[i]);
  const FpPair* groups[3] = {rf.f, rf.e, rf.a};
  for (int g = 0; g < 3; ++g) {
    for (int i = 0; i < 4; ++i) {
      store_le64(out + 64 + 64 * g + 16 * i, double_to_bits(groups[g][i].lo));
      store_le64(out + 64 + 64 * g + 16 * i + 8, double_to_bits(groups[g][i].hi));
    }
  }
}

void vm_execute(const Program& prog, const Cache& cache, uint8_t* sp, RegisterFile& rf) {
  const ProgramConfig& cfg = prog.cfg;
  // r[8] is the always-zero register used by memory forms with src == dst.
  uint64_t r[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  FpPair f[4], e[4], a[4];
  for (int i = 0; i < 4; ++i) {
    a[i].lo = bits_to_double(cfg.a_bits[2 * i]);
    a[i].hi = bits_to_double(cfg.a_bits[2 * i + 1]);
  }
  uint32_t ma = cfg.ma;
  uint32_t mx = cfg.mx;
  uint32_t sp_addr0 = mx;
  uint32_t sp_addr1 = ma;

  for (int ic = 0; ic < kProgramIterations; ++ic) {
    const uint64_t mix = r[cfg.read_reg[0]] ^ r[cfg.read_reg[1]];
    sp_addr0 = (sp_addr0 ^ uint32_t(mix)) & kL3LineMask;
    sp_addr1 = (sp_addr1 ^ uint32_t(mix >> 32)) & kL3LineMask;
    for (int i = 0; i < 8; ++i) r[i] ^= load_le64(sp + sp_addr0 + 8 * i);
    for (int i = 0; i < 4; ++i) f[i] = load_f(sp + sp_addr1 + 8 * i);
    for (int i = 0; i < 4; ++i) e[i] = load_e(sp + sp_addr1 + 32 + 8 * i, cfg.e_mask);

    for (int pc = 0; pc < kProgramSize; ++pc) {
      const Op& op = prog.ops[pc];
      uint64_t& d = r[op.dst];
      switch (op.kind) {
        case Kind::IADD_RS: d += (r[op.src] << op.shift) + op.imm; break;
        case Kind::IADD_M: d += load_le64(sp + ((r[op.src] + op.imm) & op.mask)); break;
        case Kind::ISUB_R: d -= r[op.src]; break;
        case Kind::ISUB_I: d -= op.imm; break;
        case Kind::ISUB_M: d -= load_le64(sp + ((r[op.src] + op.imm) & op.mask)); break;
        case Kind::IMUL_R: d *= r[op.src]; break;
        case Kind::IMUL_I: d *= op.imm; break;
        case Kind::IMUL_M: d *= load_le64(sp + ((r[op.src] + op.imm) & op.mask)); break;
        case Kind::IMULH_R: d = mul_hi(d, r[op.src]); break;
        case Kind::IMULH_M: d = mul_hi(d, load_le64(sp + ((r[op.src] + op.imm) & op.mask))); break;
        case Kind::ISMULH_R: d = smul_hi(d, r[op.src]); break;
        case Kind::ISMULH_M: d = smul_hi(d, load_le64(sp + ((r[op.src] + op.imm) & op.mask))); break;
        case Kind::INEG_R: d = ~d + 1; break;
        case Kind::IXOR_R: d ^= r[op.src]; break;
        case Kind::IXOR_I: d ^= op.imm; break;
        case Kind::IXOR_M: d ^= load_le64(sp + ((r[op.src] + op.imm) & op.mask)); break;
        case Kind::IROR_R: d = rotr64(d, unsigned(r[op.src] & 63)); break;
        case Kind::IROR_I: d = rotr64(d, unsigned(op.imm)); break;
        case Kind::IROL_R: d = rotl64(d, unsigned(r[op.src] & 63)); break;
        case Kind::IROL_I: d = rotl64(d, unsigned(op.imm)); break;
        case Kind::ISWAP_R: {
          uint64_t t = r[op.src];
          r[op.src] = d;
          d = t;
          break;
        }
        case Kind::FSWAP_R: {
          FpPair& x = op.dst < 4 ? f[op.dst] : e[op.dst - 4];
          double t = x.lo;
          x.lo = x.hi;
          x.hi = t;
          break;
        }
        case Kind::FADD_R:
          f[op.dst].lo += a[op.src].lo;
          f[op.dst].hi += a[op.src].hi;
          break;
        case Kind::FADD_M: {
          FpPair m = load_f(sp + ((r[op.src] + op.imm) & op.mask));
          f[op.dst].lo += m.lo;
          f[op.dst].hi += m.hi;
          break;
        }
        case Kind::FSUB_R:
          f[op.dst].lo -= a[op.src].lo;
          f[op.dst].hi -= a[op.src].hi;
          break;
        case Kind::FSUB_M: {
          FpPair m = load_f(sp + ((r[op.src] + op.imm) & op.mask));
          f[op.dst].lo -= m.lo;
          f[op.dst].hi -= m.hi;
          break;
        }
        case Kind::FSCAL_R: {
          // Negate and scale by 2^x with odd x in [-15, 15]: a pure bit flip.
          constexpr uint64_t flip = 0x80F0000000000000ULL;
          f[op.dst].lo = bits_to_double(double_to_bits(f[op.dst].lo) ^ flip);
          f[op.dst].hi = bits_to_double(double_to_bits(f[op.dst].hi) ^ flip);
          break;
        }
        case Kind::FMUL_R:
          e[op.dst].lo *= a[op.src].lo;
          e[op.dst].hi *= a[op.src].hi;
          break;
        case Kind::FDIV_M: {
          FpPair m = load_e(sp + ((r[op.src] + op.imm) & op.mask), cfg.e_mask);
          e[op.dst].lo /= m.lo;
          e[op.dst].hi /= m.hi;
          break;
        }
        case Kind::FSQRT_R:
          e[op.dst].lo = std::sqrt(e[op.dst].lo);
          e[op.dst].hi = std::sqrt(e[op.dst].hi);
          break;
        case Kind::CBRANCH:
          d += op.imm;
          if ((d & op.mask) == 0) pc = op.target;  // loop increment resumes after it
          break;
        case Kind::CFROUND:
          std::fesetround(kRoundModes[rotr64(r[op.src], unsigned(op.imm)) & 3]);
          break;
        case Kind::ISTORE:
          store_le64(sp + ((d + op.imm) & op.mask), r[op.src]);
          break;
        case Kind::NOP:
          break;
      }
    }

    mx = (mx ^ uint32_t(r[cfg.read_reg[2]] ^ r[cfg.read_reg[3]])) & kLineMask;
    // Light mode: the item at ma is computed instead of read (the prefetch
    // of the item at mx has no observable effect).
    uint64_t item[8];
    cache.dataset_item((cfg.dataset_offset + ma) / kItemSize, item);
    for (int i = 0; i < 8; ++i) r[i] ^= item[i];
    const uint32_t t = mx;
    mx = ma;
    ma = t;
    for (int i = 0; i < 8; ++i) store_le64(sp + sp_addr1 + 8 * i, r[i]);
    for (int i = 0; i < 4; ++i) {
      f[i].lo = bits_to_double(double_to_bits(f[i].lo) ^ double_to_bits(e[i].lo));
      f[i].hi = bits_to_double(double_to_bits(f[i].hi) ^ double_to_bits(e[i].hi));
      store_le64(sp + sp_addr0 + 16 * i, double_to_bits(f[i].lo));
      store_le64(sp + sp_addr0 + 16 * i + 8, double_to_bits(f[i].hi));
    }
    sp_addr0 = 0;
    sp_addr1 = 0;
  }

  for (int i = 0; i < 8; ++i) rf.r[i] = r[i];
  for (int i = 0; i < 4; ++i) {
    rf.f[i] = f[i];
    rf.e[i] = e[i];
    rf.a[i] = a[i];
  }
}

}  // namespace rx
