// Parameters of the RandomX variant that Epic Cash verifies: tevador v1.0.3 as
// forked in EpicCash/randomx (see reference pow.md §5.3). Later upstream
// releases changed several of these, so they are fixed here, not configurable.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rx {

// Argon2d cache fill.
constexpr uint32_t kArgonBlocks = 262144;  // 1 KiB blocks = 256 MiB
constexpr uint32_t kArgonPasses = 3;
constexpr uint32_t kArgonLanes = 1;
constexpr char kArgonSalt[] = "RandomX\x03";
constexpr size_t kArgonSaltLen = sizeof(kArgonSalt) - 1;

// Dataset and SuperscalarHash.
constexpr int kCacheAccesses = 8;
constexpr int kSuperscalarLatency = 170;
constexpr int kSuperscalarMaxSize = 512;
constexpr uint64_t kDatasetBaseSize = 2147483648ULL;
constexpr uint64_t kDatasetExtraSize = 33554368ULL;

// Programs.
constexpr int kProgramSize = 256;
constexpr int kProgramIterations = 2048;
constexpr int kProgramCount = 8;
constexpr int kJumpBits = 8;
constexpr int kJumpOffset = 8;

// Scratchpad levels (bytes).
constexpr uint32_t kScratchpadL3 = 2097152;
constexpr uint32_t kScratchpadL2 = 262144;
constexpr uint32_t kScratchpadL1 = 16384;

// Instruction frequencies out of 256, in opcode order. These are the v1.0.3
// values; v1.1.x uses different ones (IADD_RS 16, IROR_R 8, IROL_R 2, ...).
enum Freq : int {
  F_IADD_RS = 25, F_IADD_M = 7, F_ISUB_R = 16, F_ISUB_M = 7, F_IMUL_R = 16,
  F_IMUL_M = 4, F_IMULH_R = 4, F_IMULH_M = 1, F_ISMULH_R = 4, F_ISMULH_M = 1,
  F_IMUL_RCP = 8, F_INEG_R = 2, F_IXOR_R = 15, F_IXOR_M = 5, F_IROR_R = 10,
  F_IROL_R = 0, F_ISWAP_R = 4, F_FSWAP_R = 8, F_FADD_R = 20, F_FADD_M = 5,
  F_FSUB_R = 20, F_FSUB_M = 5, F_FSCAL_R = 6, F_FMUL_R = 20, F_FDIV_M = 4,
  F_FSQRT_R = 6, F_CBRANCH = 16, F_CFROUND = 1, F_ISTORE = 16, F_NOP = 0,
};

constexpr uint32_t kItemSize = 64;
constexpr uint64_t kCacheBytes = uint64_t(kArgonBlocks) * 1024;
constexpr uint32_t kCacheItems = uint32_t(kCacheBytes / kItemSize);
constexpr uint32_t kDatasetExtraItems = uint32_t(kDatasetExtraSize / kItemSize);

static_assert((kCacheItems & (kCacheItems - 1)) == 0, "cache item count must be a power of two");
static_assert(kJumpBits + kJumpOffset <= 16, "jump condition must fit in the low 16 bits");

}  // namespace rx
