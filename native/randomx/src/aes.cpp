#include "aes.hpp"

#include "bytes.hpp"

namespace rx {

namespace {

uint8_t gf_mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  while (b) {
    if (b & 1) r ^= a;
    a = uint8_t((a << 1) ^ ((a & 0x80) ? 0x1B : 0));
    b >>= 1;
  }
  return r;
}

// Lookup tables derived at start-up from the field arithmetic, so no table
// text has to be trusted: the S-box is the affine map of the multiplicative
// inverse in GF(2^8), and each round table folds S-box and (Inv)MixColumns
// for one row position.
struct Tables {
  uint8_t sbox[256];
  uint8_t inv_sbox[256];
  uint32_t enc[4][256];
  uint32_t dec[4][256];

  Tables() {
    for (int x = 0; x < 256; ++x) {
      uint8_t inv = 0;
      if (x != 0) {
        for (int y = 1; y < 256; ++y) {
          if (gf_mul(uint8_t(x), uint8_t(y)) == 1) {
            inv = uint8_t(y);
            break;
          }
        }
      }
      uint8_t s = inv;
      uint8_t r = inv;
      for (int k = 0; k < 4; ++k) {
        r = uint8_t((r << 1) | (r >> 7));
        s ^= r;
      }
      s ^= 0x63;
      sbox[x] = s;
      inv_sbox[s] = uint8_t(x);
    }
    // MixColumns column for a single non-zero entry y in row 0 is
    // (2y, y, y, 3y); other rows are byte rotations of it.
    for (int x = 0; x < 256; ++x) {
      uint8_t y = sbox[x];
      uint32_t col = uint32_t(gf_mul(y, 2)) | (uint32_t(y) << 8) | (uint32_t(y) << 16) |
                     (uint32_t(gf_mul(y, 3)) << 24);
      uint8_t z = inv_sbox[x];
      uint32_t icol = uint32_t(gf_mul(z, 14)) | (uint32_t(gf_mul(z, 9)) << 8) |
                      (uint32_t(gf_mul(z, 13)) << 16) | (uint32_t(gf_mul(z, 11)) << 24);
      for (int r = 0; r < 4; ++r) {
        enc[r][x] = r == 0 ? col : (col << (8 * r)) | (col >> (32 - 8 * r));
        dec[r][x] = r == 0 ? icol : (icol << (8 * r)) | (icol >> (32 - 8 * r));
      }
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

inline uint8_t row(uint32_t col, int r) { return uint8_t(col >> (8 * r)); }

}  // namespace

Block128 block_load(const uint8_t* p) {
  return Block128{{load_le32(p), load_le32(p + 4), load_le32(p + 8), load_le32(p + 12)}};
}

void block_store(uint8_t* p, const Block128& b) {
  for (int i = 0; i < 4; ++i) store_le32(p + 4 * i, b.c[i]);
}

Block128 aes_enc_round(const Block128& s, const Block128& key) {
  const Tables& t = tables();
  Block128 out;
  // ShiftRows moves row r of column c+r into column c.
  for (int c = 0; c < 4; ++c) {
    out.c[c] = t.enc[0][row(s.c[c], 0)] ^ t.enc[1][row(s.c[(c + 1) & 3], 1)] ^
               t.enc[2][row(s.c[(c + 2) & 3], 2)] ^ t.enc[3][row(s.c[(c + 3) & 3], 3)] ^ key.c[c];
  }
  return out;
}

Block128 aes_dec_round(const Block128& s, const Block128& key) {
  const Tables& t = tables();
  Block128 out;
  // InvShiftRows moves row r of column c-r into column c.
  for (int c = 0; c < 4; ++c) {
    out.c[c] = t.dec[0][row(s.c[c], 0)] ^ t.dec[1][row(s.c[(c + 3) & 3], 1)] ^
               t.dec[2][row(s.c[(c + 2) & 3], 2)] ^ t.dec[3][row(s.c[(c + 1) & 3], 3)] ^ key.c[c];
  }
  return out;
}

}  // namespace rx
