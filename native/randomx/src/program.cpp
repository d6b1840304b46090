#include "program.hpp"

#include "bytes.hpp"
#include "superscalar.hpp"  // reciprocal_u32

namespace rx {

namespace {

// The 29 instructions in opcode order (IROL_R and NOP have frequency 0 in
// v1.0.3 but keep their places in the order).
enum class Instr : uint8_t {
  IADD_RS, IADD_M, ISUB_R, ISUB_M, IMUL_R, IMUL_M, IMULH_R, IMULH_M, ISMULH_R,
  ISMULH_M, IMUL_RCP, INEG_R, IXOR_R, IXOR_M, IROR_R, IROL_R, ISWAP_R,
  FSWAP_R, FADD_R, FADD_M, FSUB_R, FSUB_M, FSCAL_R, FMUL_R, FDIV_M, FSQRT_R,
  CBRANCH, CFROUND, ISTORE, NOP, COUNT_
};

struct OpcodeTable {
  Instr of[256];
  OpcodeTable() {
    const int freq[] = {
        F_IADD_RS, F_IADD_M, F_ISUB_R, F_ISUB_M, F_IMUL_R, F_IMUL_M, F_IMULH_R, F_IMULH_M,
        F_ISMULH_R, F_ISMULH_M, F_IMUL_RCP, F_INEG_R, F_IXOR_R, F_IXOR_M, F_IROR_R, F_IROL_R,
        F_ISWAP_R, F_FSWAP_R, F_FADD_R, F_FADD_M, F_FSUB_R, F_FSUB_M, F_FSCAL_R, F_FMUL_R,
        F_FDIV_M, F_FSQRT_R, F_CBRANCH, F_CFROUND, F_ISTORE, F_NOP,
    };
    static_assert(sizeof(freq) / sizeof(freq[0]) == int(Instr::COUNT_), "one frequency per instruction");
    int next = 0;
    for (int i = 0; i < int(Instr::COUNT_); ++i)
      for (int k = 0; k < freq[i]; ++k) of[next++] = Instr(i);
    // The frequencies sum to 256 (checked below at compile time).
  }
};

constexpr int kFreqSum = F_IADD_RS + F_IADD_M + F_ISUB_R + F_ISUB_M + F_IMUL_R + F_IMUL_M + F_IMULH_R +
                         F_IMULH_M + F_ISMULH_R + F_ISMULH_M + F_IMUL_RCP + F_INEG_R + F_IXOR_R + F_IXOR_M +
                         F_IROR_R + F_IROL_R + F_ISWAP_R + F_FSWAP_R + F_FADD_R + F_FADD_M + F_FSUB_R +
                         F_FSUB_M + F_FSCAL_R + F_FMUL_R + F_FDIV_M + F_FSQRT_R + F_CBRANCH + F_CFROUND +
                         F_ISTORE + F_NOP;
static_assert(kFreqSum == 256, "instruction frequencies must cover all 256 opcodes");

const OpcodeTable& opcodes() {
  static const OpcodeTable t;
  return t;
}

constexpr uint32_t kMaskL1 = kScratchpadL1 - 8;
constexpr uint32_t kMaskL2 = kScratchpadL2 - 8;
constexpr uint32_t kMaskL3 = kScratchpadL3 - 8;
constexpr uint32_t kLineAlignMask = uint32_t((kDatasetBaseSize - 1) & ~uint64_t(kItemSize - 1));
constexpr int kStoreL3Cond = 14;

// a registers: 1.fraction * 2^e with e in 0..31 taken from the top 5 bits.
uint64_t small_positive_float(uint64_t entropy) {
  uint64_t exponent = ((entropy >> 59) + 1023) & 0x7FF;
  return (exponent << 52) | (entropy & ((1ULL << 52) - 1));
}

// E-group mask: 22 fraction bits, and exponent bits 4-7 from the top nibble
// with bits 8-9 fixed to 1 (the low four exponent bits stay from the value).
uint64_t e_group_mask(uint64_t entropy) {
  uint64_t exponent = 0x300 | ((entropy >> 60) << 4);
  return (entropy & ((1ULL << 22) - 1)) | (exponent << 52);
}

}  // namespace

void program_decode(const uint8_t bytes[kProgramBytes], Program& out) {
  ProgramConfig& c = out.cfg;
  uint64_t q[16];
  for (int i = 0; i < 16; ++i) q[i] = load_le64(bytes + 8 * i);
  for (int i = 0; i < 8; ++i) c.a_bits[i] = small_positive_float(q[i]);
  c.ma = uint32_t(q[8]) & kLineAlignMask;
  c.mx = uint32_t(q[10]);
  for (int i = 0; i < 4; ++i) c.read_reg[i] = uint8_t(2 * i + ((q[12] >> i) & 1));
  // v1.0.3 takes the offset modulo (extra items + 1), not a bit mask.
  c.dataset_offset = (q[13] % (uint64_t(kDatasetExtraItems) + 1)) * kItemSize;
  c.e_mask[0] = e_group_mask(q[14]);
  c.e_mask[1] = e_group_mask(q[15]);

  // Last instruction index that wrote each integer register, for CBRANCH
  // targets; -1 means "restart at the first instruction".
  int last_write[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  const OpcodeTable& table = opcodes();

  for (int i = 0; i < kProgramSize; ++i) {
    const uint8_t* w = bytes + 128 + 8 * i;
    const Instr ins = table.of[w[0]];
    const int dst = w[1] & 7;
    const int src = w[2] & 7;
    const uint8_t mod = w[3];
    const uint32_t imm32 = load_le32(w + 4);
    const uint32_t mem_mask = (mod & 3) ? kMaskL1 : kMaskL2;

    Op& op = out.ops[i];
    op = Op{};
    op.dst = uint8_t(dst);
    op.src = uint8_t(src);
    op.imm = sext32(imm32);

    // Register-memory forms: with src == dst the address is imm32 within L3.
    auto memory_form = [&](Kind k) {
      op.kind = k;
      if (src == dst) {
        op.src = kZeroReg;
        op.mask = kMaskL3;
      } else {
        op.mask = mem_mask;
      }
      last_write[dst] = i;
    };
    // Register-register forms that fall back to the immediate.
    auto reg_or_imm = [&](Kind reg_kind, Kind imm_kind) {
      op.kind = src == dst ? imm_kind : reg_kind;
      last_write[dst] = i;
    };

    switch (ins) {
      case Instr::IADD_RS:
        op.kind = Kind::IADD_RS;
        op.shift = uint8_t((mod >> 2) & 3);
        // Only r5 adds the displacement (x86 lea with r13 needs one anyway).
        op.imm = dst == 5 ? sext32(imm32) : 0;
        last_write[dst] = i;
        break;
      case Instr::IADD_M: memory_form(Kind::IADD_M); break;
      case Instr::ISUB_R: reg_or_imm(Kind::ISUB_R, Kind::ISUB_I); break;
      case Instr::ISUB_M: memory_form(Kind::ISUB_M); break;
      case Instr::IMUL_R: reg_or_imm(Kind::IMUL_R, Kind::IMUL_I); break;
      case Instr::IMUL_M: memory_form(Kind::IMUL_M); break;
      case Instr::IMULH_R: op.kind = Kind::IMULH_R; last_write[dst] = i; break;
      case Instr::IMULH_M: memory_form(Kind::IMULH_M); break;
      case Instr::ISMULH_R: op.kind = Kind::ISMULH_R; last_write[dst] = i; break;
      case Instr::ISMULH_M: memory_form(Kind::ISMULH_M); break;
      case Instr::IMUL_RCP:
        // Zero and powers of two make it a no-op that modifies nothing.
        if ((imm32 & (imm32 - 1)) != 0) {
          op.kind = Kind::IMUL_I;
          op.imm = reciprocal_u32(imm32);
          last_write[dst] = i;
        } else {
          op.kind = Kind::NOP;
        }
        break;
      case Instr::INEG_R: op.kind = Kind::INEG_R; last_write[dst] = i; break;
      case Instr::IXOR_R: reg_or_imm(Kind::IXOR_R, Kind::IXOR_I); break;
      case Instr::IXOR_M: memory_form(Kind::IXOR_M); break;
      case Instr::IROR_R:
        reg_or_imm(Kind::IROR_R, Kind::IROR_I);
        op.imm = imm32 & 63;
        break;
      case Instr::IROL_R:
        reg_or_imm(Kind::IROL_R, Kind::IROL_I);
        op.imm = imm32 & 63;
        break;
      case Instr::ISWAP_R:
        if (src != dst) {
          op.kind = Kind::ISWAP_R;
          last_write[dst] = i;
          last_write[src] = i;
        } else {
          op.kind = Kind::NOP;
        }
        break;
      case Instr::FSWAP_R:
        op.kind = Kind::FSWAP_R;  // dst 0-3: f registers, 4-7: e registers
        break;
      case Instr::FADD_R: op.kind = Kind::FADD_R; op.dst = uint8_t(dst & 3); op.src = uint8_t(src & 3); break;
      case Instr::FADD_M: op.kind = Kind::FADD_M; op.dst = uint8_t(dst & 3); op.mask = mem_mask; break;
      case Instr::FSUB_R: op.kind = Kind::FSUB_R; op.dst = uint8_t(dst & 3); op.src = uint8_t(src & 3); break;
      case Instr::FSUB_M: op.kind = Kind::FSUB_M; op.dst = uint8_t(dst & 3); op.mask = mem_mask; break;
      case Instr::FSCAL_R: op.kind = Kind::FSCAL_R; op.dst = uint8_t(dst & 3); break;
      case Instr::FMUL_R: op.kind = Kind::FMUL_R; op.dst = uint8_t(dst & 3); op.src = uint8_t(src & 3); break;
      case Instr::FDIV_M: op.kind = Kind::FDIV_M; op.dst = uint8_t(dst & 3); op.mask = mem_mask; break;
      case Instr::FSQRT_R: op.kind = Kind::FSQRT_R; op.dst = uint8_t(dst & 3); break;
      case Instr::CBRANCH: {
        op.kind = Kind::CBRANCH;
        const int b = (mod >> 4) + kJumpOffset;
        uint64_t cimm = sext32(imm32) | (1ULL << b);
        // Clearing the bit below the tested window bounds how often a
        // branch can be taken in a row.
        cimm &= ~(1ULL << (b - 1));
        op.imm = cimm;
        op.mask = uint32_t(((1u << kJumpBits) - 1) << b);
        op.target = last_write[dst];
        // A branch counts as modifying every register.
        for (int r = 0; r < 8; ++r) last_write[r] = i;
        break;
      }
      case Instr::CFROUND:
        op.kind = Kind::CFROUND;
        op.imm = imm32 & 63;
        break;
      case Instr::ISTORE:
        op.kind = Kind::ISTORE;
        op.mask = (mod >> 4) >= kStoreL3Cond ? kMaskL3 : mem_mask;
        break;
      default:
        op.kind = Kind::NOP;
        break;
    }
  }
}

}  // namespace rx
