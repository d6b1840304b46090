#include "superscalar.hpp"

#include <algorithm>

#include "bytes.hpp"

namespace rx {

namespace {

// Execution ports of the reference CPU as a bit set.
constexpr int kP0 = 1, kP1 = 2, kP5 = 4;
constexpr int kP01 = kP0 | kP1, kP05 = kP0 | kP5, kP015 = kP0 | kP1 | kP5;

// A macro-op: decoded size does not matter for the schedule, only its
// latency and the ports of its (up to two) micro-ops. `chained` marks the
// second half of IMUL_RCP, which must wait for the constant load.
struct MacroOp {
  int latency;
  int port_a;  // 0 = eliminated (no execution port)
  int port_b;  // 0 = single micro-op
  bool chained;
};

constexpr MacroOp kSubRR{1, kP015, 0, false};
constexpr MacroOp kXorRR{1, kP015, 0, false};
constexpr MacroOp kLea{1, kP01, 0, false};
constexpr MacroOp kImulRR{3, kP1, 0, false};
constexpr MacroOp kRorRI{1, kP05, 0, false};
constexpr MacroOp kAddRI{1, kP015, 0, false};
constexpr MacroOp kXorRI{1, kP015, 0, false};
constexpr MacroOp kMovRR{0, 0, 0, false};
constexpr MacroOp kMulR{4, kP1, kP5, false};
constexpr MacroOp kImulR{4, kP1, kP5, false};
constexpr MacroOp kMovRI64{1, kP015, 0, false};
constexpr MacroOp kImulRRChained{3, kP1, 0, true};

// Shape of each instruction kind: its macro-ops and at which macro-op the
// result is written, the destination chosen and the source chosen (-1: no
// register source).
struct Shape {
  int count;
  MacroOp ops[3];
  int result_at;
  int dst_at;
  int src_at;
};

const Shape& shape_of(SsOp op) {
  static const Shape shapes[] = {
      {1, {kSubRR}, 0, 0, 0},                      // ISUB_R
      {1, {kXorRR}, 0, 0, 0},                      // IXOR_R
      {1, {kLea}, 0, 0, 0},                        // IADD_RS
      {1, {kImulRR}, 0, 0, 0},                     // IMUL_R
      {1, {kRorRI}, 0, 0, -1},                     // IROR_C
      {1, {kAddRI}, 0, 0, -1},                     // IADD_C7
      {1, {kXorRI}, 0, 0, -1},                     // IXOR_C7
      {1, {kAddRI}, 0, 0, -1},                     // IADD_C8
      {1, {kXorRI}, 0, 0, -1},                     // IXOR_C8
      {1, {kAddRI}, 0, 0, -1},                     // IADD_C9
      {1, {kXorRI}, 0, 0, -1},                     // IXOR_C9
      {3, {kMovRR, kMulR, kMovRR}, 1, 0, 1},       // IMULH_R
      {3, {kMovRR, kImulR, kMovRR}, 1, 0, 1},      // ISMULH_R
      {2, {kMovRI64, kImulRRChained}, 1, 1, -1},   // IMUL_RCP
  };
  return shapes[int(op)];
}

bool is_multiply(SsOp op) {
  return op == SsOp::IMUL_R || op == SsOp::IMULH_R || op == SsOp::ISMULH_R || op == SsOp::IMUL_RCP;
}

// Decoder groups: slot sizes of one 16-byte fetch.
struct DecodeGroup {
  int id;
  int slots;
  int size[4];
};
constexpr DecodeGroup kGroups[6] = {
    {0, 3, {4, 8, 4}},    {1, 4, {7, 3, 3, 3}}, {2, 4, {3, 7, 3, 3}},
    {3, 3, {4, 9, 3}},    {4, 4, {4, 4, 4, 4}}, {5, 3, {3, 3, 10}},
};

constexpr int kCycleMap = kSuperscalarLatency + 4;
constexpr int kLookAhead = 4;
constexpr int kMaxThrowAway = 256;

// Register bookkeeping of the simulation. `last_group`/`last_par` describe
// the last operation written to the register, to avoid trivially reducible
// sequences. Group parameters are compared as 32-bit values (IMULH draws a
// random 32-bit one), -1 meaning "constant operand".
struct RegState {
  int ready = 0;
  int last_group = -1;
  int32_t last_par = -1;
};

// The instruction being assembled.
struct Pending {
  bool valid = false;  // false = no instruction yet (or abandoned)
  SsOp op = SsOp::ISUB_R;
  int src = -1;
  int dst = -1;
  uint8_t mod = 0;
  uint32_t imm = 0;
  int group = -1;
  int32_t par = -1;
  bool reuse_ok = false;  // destination may equal source
  bool par_is_src = false;

  int op_count() const { return valid ? shape_of(op).count : 0; }
};

class Builder {
 public:
  explicit Builder(Blake2Generator& gen) : gen_(gen) {
    for (auto& row : busy_) row[0] = row[1] = row[2] = false;
  }

  SsProgram run();

 private:
  const DecodeGroup& next_group(int decode_cycle);
  void begin_for_slot(int slot_size, int group_id, bool last_slot);
  void begin(SsOp op);
  bool pick(const int* cand, int n, int& out);
  bool pick_source(int cycle);
  bool pick_destination(int cycle, bool allow_chained_mul);
  int place_uop(int ports, int cycle, bool commit);
  int place_mop(const MacroOp& m, int cycle, int dep_cycle, bool commit);

  Blake2Generator& gen_;
  bool busy_[kCycleMap][3];  // [cycle][P0, P1, P5]
  RegState regs_[8];
  Pending cur_;
  int mul_count_ = 0;
};

const DecodeGroup& Builder::next_group(int decode_cycle) {
  const int prev = cur_.valid ? int(cur_.op) : -1;
  // A 128-bit multiply is two micro-ops; the 3-3-10 group keeps decoding
  // within four micro-ops per cycle.
  if (prev == int(SsOp::IMULH_R) || prev == int(SsOp::ISMULH_R)) return kGroups[5];
  // Keep the multiplier port busy: one multiplication per cycle at least.
  if (mul_count_ < decode_cycle + 1) return kGroups[4];
  // IMUL_RCP's multiply must land in a 4-byte slot at the next group start.
  if (prev == int(SsOp::IMUL_RCP)) return (gen_.next_byte() & 1) ? kGroups[0] : kGroups[3];
  return kGroups[gen_.next_byte() & 3];
}

void Builder::begin_for_slot(int slot_size, int group_id, bool last_slot) {
  switch (slot_size) {
    case 3:
      if (last_slot) {
        static const SsOp pick4[4] = {SsOp::ISUB_R, SsOp::IXOR_R, SsOp::IMULH_R, SsOp::ISMULH_R};
        begin(pick4[gen_.next_byte() & 3]);
      } else {
        begin((gen_.next_byte() & 1) ? SsOp::IXOR_R : SsOp::ISUB_R);
      }
      break;
    case 4:
      if (group_id == 4 && !last_slot) begin(SsOp::IMUL_R);
      else begin((gen_.next_byte() & 1) ? SsOp::IADD_RS : SsOp::IROR_C);
      break;
    case 7:
      begin((gen_.next_byte() & 1) ? SsOp::IADD_C7 : SsOp::IXOR_C7);
      break;
    case 8:
      begin((gen_.next_byte() & 1) ? SsOp::IADD_C8 : SsOp::IXOR_C8);
      break;
    case 9:
      begin((gen_.next_byte() & 1) ? SsOp::IADD_C9 : SsOp::IXOR_C9);
      break;
    default:  // 10
      begin(SsOp::IMUL_RCP);
      break;
  }
}

void Builder::begin(SsOp op) {
  // `par` deliberately survives from the previous instruction for kinds
  // whose parameter is their source: it is always set before it is read.
  cur_.valid = true;
  cur_.op = op;
  cur_.src = cur_.dst = -1;
  cur_.reuse_ok = false;
  cur_.par_is_src = false;
  cur_.mod = 0;
  cur_.imm = 0;
  switch (op) {
    case SsOp::ISUB_R:
      // Subtraction shares the addition group on purpose (as in v1.0.3).
      cur_.group = int(SsOp::IADD_RS);
      cur_.par_is_src = true;
      break;
    case SsOp::IXOR_R:
      cur_.group = int(SsOp::IXOR_R);
      cur_.par_is_src = true;
      break;
    case SsOp::IADD_RS:
      cur_.mod = gen_.next_byte();
      cur_.group = int(SsOp::IADD_RS);
      cur_.par_is_src = true;
      break;
    case SsOp::IMUL_R:
      cur_.group = int(SsOp::IMUL_R);
      cur_.par_is_src = true;
      break;
    case SsOp::IROR_C:
      do {
        cur_.imm = gen_.next_byte() & 63;
      } while (cur_.imm == 0);
      cur_.group = int(SsOp::IROR_C);
      cur_.par = -1;
      break;
    case SsOp::IADD_C7:
    case SsOp::IADD_C8:
    case SsOp::IADD_C9:
      cur_.imm = gen_.next_u32();
      cur_.group = int(SsOp::IADD_C7);
      cur_.par = -1;
      break;
    case SsOp::IXOR_C7:
    case SsOp::IXOR_C8:
    case SsOp::IXOR_C9:
      cur_.imm = gen_.next_u32();
      cur_.group = int(SsOp::IXOR_C7);
      cur_.par = -1;
      break;
    case SsOp::IMULH_R:
    case SsOp::ISMULH_R:
      cur_.reuse_ok = true;
      cur_.group = int(op);
      cur_.par = int32_t(gen_.next_u32());
      break;
    case SsOp::IMUL_RCP:
      do {
        cur_.imm = gen_.next_u32();
      } while ((cur_.imm & (cur_.imm - 1)) == 0);
      cur_.group = int(SsOp::IMUL_RCP);
      cur_.par = -1;
      break;
  }
}

bool Builder::pick(const int* cand, int n, int& out) {
  if (n == 0) return false;
  int idx = n > 1 ? int(gen_.next_u32() % uint32_t(n)) : 0;
  out = cand[idx];
  return true;
}

bool Builder::pick_source(int cycle) {
  int cand[8];
  int n = 0;
  for (int i = 0; i < 8; ++i)
    if (regs_[i].ready <= cycle) cand[n++] = i;
  // r5 cannot be an IADD_RS destination; with only two candidates, use it
  // as the source so the other one stays available.
  if (n == 2 && cur_.op == SsOp::IADD_RS && (cand[0] == 5 || cand[1] == 5)) {
    cur_.src = 5;
    cur_.par = 5;
    return true;
  }
  if (!pick(cand, n, cur_.src)) return false;
  if (cur_.par_is_src) cur_.par = cur_.src;
  return true;
}

bool Builder::pick_destination(int cycle, bool allow_chained_mul) {
  int cand[8];
  int n = 0;
  for (int i = 0; i < 8; ++i) {
    const RegState& r = regs_[i];
    if (r.ready > cycle) continue;
    if (!cur_.reuse_ok && i == cur_.src) continue;
    if (!allow_chained_mul && cur_.group == int(SsOp::IMUL_R) && r.last_group == int(SsOp::IMUL_R)) continue;
    if (r.last_group == cur_.group && r.last_par == cur_.par) continue;
    if (cur_.op == SsOp::IADD_RS && i == 5) continue;
    cand[n++] = i;
  }
  return pick(cand, n, cur_.dst);
}

// Ports are tried in the order P5, P0, P1 so that the multiplier (P1) is
// kept for the instructions that need it.
int Builder::place_uop(int ports, int cycle, bool commit) {
  for (; cycle < kCycleMap; ++cycle) {
    if ((ports & kP5) && !busy_[cycle][2]) {
      if (commit) busy_[cycle][2] = true;
      return cycle;
    }
    if ((ports & kP0) && !busy_[cycle][0]) {
      if (commit) busy_[cycle][0] = true;
      return cycle;
    }
    if ((ports & kP1) && !busy_[cycle][1]) {
      if (commit) busy_[cycle][1] = true;
      return cycle;
    }
  }
  return -1;
}

int Builder::place_mop(const MacroOp& m, int cycle, int dep_cycle, bool commit) {
  if (m.chained) cycle = std::max(cycle, dep_cycle);
  if (m.port_a == 0) return cycle;  // eliminated register move
  if (m.port_b == 0) return place_uop(m.port_a, cycle, commit);
  // Both micro-ops of a pair must issue in the same cycle.
  for (; cycle < kCycleMap; ++cycle) {
    int a = place_uop(m.port_a, cycle, false);
    int b = place_uop(m.port_b, cycle, false);
    if (a == b) {
      if (commit) {
        place_uop(m.port_a, a, true);
        place_uop(m.port_b, b, true);
      }
      return a;
    }
  }
  return -1;
}

SsProgram Builder::run() {
  std::vector<SsInstr> out;
  int mop_index = 0;
  int cycle = 0;
  int dep_cycle = 0;
  bool saturated = false;
  int throw_away = 0;

  for (int decode_cycle = 0;
       decode_cycle < kSuperscalarLatency && !saturated && int(out.size()) < kSuperscalarMaxSize;
       ++decode_cycle) {
    const DecodeGroup& grp = next_group(decode_cycle);
    int slot = 0;
    while (slot < grp.slots) {
      const int top_cycle = cycle;
      if (mop_index >= cur_.op_count()) {
        if (saturated || int(out.size()) >= kSuperscalarMaxSize) break;
        begin_for_slot(grp.size[slot], grp.id, slot + 1 == grp.slots);
        mop_index = 0;
      }
      const Shape& sh = shape_of(cur_.op);
      const MacroOp& mop = sh.ops[mop_index];

      int at = place_mop(mop, cycle, dep_cycle, false);
      if (at < 0) {
        saturated = true;
        break;
      }

      bool discard = false;
      bool abandon = false;
      if (mop_index == sh.src_at) {
        int tries = 0;
        for (; tries < kLookAhead && !pick_source(at); ++tries) {
          ++at;
          ++cycle;
        }
        if (tries == kLookAhead) {
          if (throw_away < kMaxThrowAway) discard = true;
          else abandon = true;
        }
      }
      if (!discard && !abandon && mop_index == sh.dst_at) {
        int tries = 0;
        for (; tries < kLookAhead && !pick_destination(at, throw_away > 0); ++tries) {
          ++at;
          ++cycle;
        }
        if (tries == kLookAhead) {
          if (throw_away < kMaxThrowAway) discard = true;
          else abandon = true;
        }
      }
      if (discard) {
        // Drop the instruction and fill the same slot with a new one; the
        // stall cycles spent looking for operands are kept.
        ++throw_away;
        mop_index = sh.count;
        continue;
      }
      if (abandon) {
        cur_ = Pending{};
        break;
      }
      throw_away = 0;

      at = place_mop(mop, at, at, true);
      dep_cycle = at + mop.latency;
      if (mop_index == sh.result_at) {
        RegState& r = regs_[cur_.dst];
        r.ready = dep_cycle;
        r.last_group = cur_.group;
        r.last_par = cur_.par;
      }
      ++slot;
      ++mop_index;
      if (at >= kSuperscalarLatency) saturated = true;
      cycle = top_cycle;

      if (mop_index >= sh.count) {
        SsInstr ins{};
        ins.op = cur_.op;
        ins.dst = uint8_t(cur_.dst);
        ins.src = uint8_t(cur_.src >= 0 ? cur_.src : cur_.dst);
        ins.shift = uint8_t((cur_.mod >> 2) & 3);
        ins.imm32 = cur_.imm;
        switch (cur_.op) {
          case SsOp::IROR_C: ins.operand = cur_.imm & 63; break;
          case SsOp::IMUL_RCP: ins.operand = reciprocal_u32(cur_.imm); break;
          default: ins.operand = sext32(cur_.imm); break;
        }
        out.push_back(ins);
        if (is_multiply(cur_.op)) ++mul_count_;
      }
    }
    ++cycle;
  }

  // The address register is the one ending the longest dependency chain,
  // counting one step per instruction (an ideal machine's latency); ties go
  // to the lowest register number.
  int depth[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (const SsInstr& ins : out) {
    int via_dst = depth[ins.dst] + 1;
    int via_src = ins.dst != ins.src ? depth[ins.src] + 1 : 0;
    depth[ins.dst] = std::max(via_dst, via_src);
  }
  SsProgram prog;
  int best = 0;
  for (int i = 0; i < 8; ++i) {
    if (depth[i] > best) {
      best = depth[i];
      prog.address_reg = i;
    }
  }
  for (const SsInstr& ins : out) {
    SsExec x{ins.op, ins.dst, ins.src, ins.shift, ins.imm32};
    if (ins.op == SsOp::IROR_C) x.arg = ins.imm32 & 63;
    if (ins.op == SsOp::IMUL_RCP) {
      x.arg = uint32_t(prog.reciprocals.size());
      prog.reciprocals.push_back(ins.operand);
    }
    prog.exec.push_back(x);
  }
  prog.code = std::move(out);
  return prog;
}

inline uint64_t mul_hi(uint64_t a, uint64_t b) {
  return uint64_t((unsigned __int128)a * b >> 64);
}

// Signed high product computed on unsigned values: hi(a*b) minus the
// corrections for negative operands, which avoids signed overflow.
inline uint64_t smul_hi(uint64_t a, uint64_t b) {
  uint64_t hi = mul_hi(a, b);
  if (a >> 63) hi -= b;
  if (b >> 63) hi -= a;
  return hi;
}

}  // namespace

uint64_t reciprocal_u32(uint32_t divisor) {
  int bits = 0;
  for (uint32_t d = divisor; d != 0; d >>= 1) ++bits;
  unsigned __int128 num = (unsigned __int128)1 << (63 + bits);
  return uint64_t(num / divisor);
}

SsProgram superscalar_generate(Blake2Generator& gen) {
  Builder b(gen);
  return b.run();
}

void superscalar_run(const SsProgram& prog, uint64_t r[8]) {
  const uint64_t* rcp = prog.reciprocals.data();
  for (const SsExec& ins : prog.exec) {
    uint64_t& d = r[ins.dst];
    switch (ins.op) {
      case SsOp::ISUB_R: d -= r[ins.src]; break;
      case SsOp::IXOR_R: d ^= r[ins.src]; break;
      case SsOp::IADD_RS: d += r[ins.src] << ins.shift; break;
      case SsOp::IMUL_R: d *= r[ins.src]; break;
      case SsOp::IROR_C: d = rotr64(d, ins.arg); break;
      case SsOp::IADD_C7:
      case SsOp::IADD_C8:
      case SsOp::IADD_C9: d += sext32(ins.arg); break;
      case SsOp::IXOR_C7:
      case SsOp::IXOR_C8:
      case SsOp::IXOR_C9: d ^= sext32(ins.arg); break;
      case SsOp::IMULH_R: d = mul_hi(d, r[ins.src]); break;
      case SsOp::ISMULH_R: d = smul_hi(d, r[ins.src]); break;
      case SsOp::IMUL_RCP: d *= rcp[ins.arg]; break;
    }
  }
}

}  // namespace rx
