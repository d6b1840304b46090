// Argon2d (RFC 9106, version 0x13) memory filling. RandomX uses only the
// filled memory as its Cache (the finaliser is skipped); the tag is computed
// here too so the implementation can be checked against the RFC vector.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rx {

struct Argon2Params {
  const uint8_t* password = nullptr;
  size_t password_len = 0;
  const uint8_t* salt = nullptr;
  size_t salt_len = 0;
  const uint8_t* secret = nullptr;
  size_t secret_len = 0;
  const uint8_t* assoc = nullptr;
  size_t assoc_len = 0;
  uint32_t lanes = 1;
  uint32_t passes = 1;
  uint32_t memory_kib = 8;  // requested blocks; rounded down to 4*lanes multiple
  uint32_t tag_len = 0;     // goes into H0 even when no tag is produced
};

// Number of 1 KiB blocks actually used for the given parameters.
uint32_t argon2_block_count(const Argon2Params& p);

// Fills `memory` (argon2_block_count(p) * 1024 bytes, 8-byte aligned) with
// the Argon2d memory after all passes. Words are stored in host order, which
// is little-endian on every supported target.
void argon2d_fill(const Argon2Params& p, uint64_t* memory);

// Full Argon2d: fill then finalise into `tag` (p.tag_len bytes).
void argon2d_hash(const Argon2Params& p, uint64_t* memory, uint8_t* tag);

}  // namespace rx
