// One AES round as the x86 AESENC/AESDEC instructions define it; RandomX's
// generators and fingerprint are specified in terms of these single rounds
// (spec §3.1), not full AES.
//
//   encrypt: ShiftRows, SubBytes, MixColumns, XOR key
//   decrypt: InvShiftRows, InvSubBytes, InvMixColumns, XOR key
//
// A block is 16 bytes in AES order (byte 4*c + r is row r of column c), held
// as four little-endian 32-bit columns.
#pragma once

#include <cstdint>

namespace rx {

struct Block128 {
  uint32_t c[4];
};

Block128 block_load(const uint8_t* p);
void block_store(uint8_t* p, const Block128& b);

Block128 aes_enc_round(const Block128& s, const Block128& key);
Block128 aes_dec_round(const Block128& s, const Block128& key);

}  // namespace rx
