// Standalone checks of the RandomX pieces and of Epic's seven vectors.
//   ./vectors            component tests + all hash vectors
//   ./vectors --quick    component tests only (no 256 MiB cache)
//   ./vectors --bench N  cache init time and N light-mode hashes
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../src/aes.hpp"
#include "../src/aes_generators.hpp"
#include "../src/argon2d.hpp"
#include "../src/blake2b.hpp"
#include "../src/bytes.hpp"
#include "../src/cache.hpp"
#include "../src/randomx.hpp"
#include "../src/superscalar.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace rx;

static int failures = 0;

static std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

static void check(const char* name, const std::string& got, const std::string& want) {
  bool ok = got == want;
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", name);
  if (!ok) {
    std::printf("     got  %s\n     want %s\n", got.c_str(), want.c_str());
    ++failures;
  }
}

static void test_blake2b() {
  uint8_t out[64];
  blake2b(out, 64, "abc", 3);
  check("blake2b-512 abc (RFC 7693 appendix A)", hex(out, 64),
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
        "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  blake2b(out, 32, "abc", 3);
  check("blake2b-256 abc", hex(out, 32), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
  // Multi-block input exercising the buffer boundary (1000 x 'a').
  std::string a(1000, 'a');
  Blake2b h(64);
  h.update(a.data(), 100);
  h.update(a.data() + 100, 900);
  uint8_t inc[64];
  h.finish(inc);
  blake2b(out, 64, a.data(), a.size());
  check("blake2b incremental == one-shot", hex(inc, 64), hex(out, 64));
}

static void test_argon2d() {
  // RFC 9106 §5.1 Argon2d test vector.
  uint8_t pwd[32], salt[16], secret[8], ad[12];
  std::memset(pwd, 1, 32);
  std::memset(salt, 2, 16);
  std::memset(secret, 3, 8);
  std::memset(ad, 4, 12);
  Argon2Params p;
  p.password = pwd;
  p.password_len = 32;
  p.salt = salt;
  p.salt_len = 16;
  p.secret = secret;
  p.secret_len = 8;
  p.assoc = ad;
  p.assoc_len = 12;
  p.lanes = 4;
  p.passes = 3;
  p.memory_kib = 32;
  p.tag_len = 32;
  std::vector<uint64_t> mem(argon2_block_count(p) * 128);
  uint8_t tag[32];
  argon2d_hash(p, mem.data(), tag);
  check("argon2d RFC 9106 vector", hex(tag, 32), "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb");
}

#if defined(__x86_64__)
__attribute__((target("aes,sse2"))) static void hw_round(const uint8_t* s, const uint8_t* k, uint8_t* enc, uint8_t* dec) {
  __m128i vs = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  __m128i vk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(enc), _mm_aesenc_si128(vs, vk));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dec), _mm_aesdec_si128(vs, vk));
}
#endif

static void from_be_hex(const char* h, uint8_t out[16]) {
  // 128-bit register value written most significant byte first -> memory order.
  for (int i = 0; i < 16; ++i) {
    unsigned v;
    std::sscanf(h + 2 * i, "%2x", &v);
    out[15 - i] = uint8_t(v);
  }
}

static void test_aes() {
  // Intel AES-NI white paper, AESENC/AESDEC example.
  uint8_t s[16], k[16], want_enc[16], want_dec[16], got[16];
  from_be_hex("7b5b54657374566563746f725d53475d", s);
  from_be_hex("48692853686179295b477565726f6e5d", k);
  from_be_hex("a8311c2f9fdba3c58b104b58ded7e595", want_enc);
  from_be_hex("138ac342faea2787b58eb95eb730392a", want_dec);
  block_store(got, aes_enc_round(block_load(s), block_load(k)));
  check("aes encrypt round (Intel AESENC example)", hex(got, 16), hex(want_enc, 16));
  block_store(got, aes_dec_round(block_load(s), block_load(k)));
  check("aes decrypt round (Intel AESDEC example)", hex(got, 16), hex(want_dec, 16));

#if defined(__x86_64__)
  if (__builtin_cpu_supports("aes")) {
    uint8_t x[64];
    blake2b(x, 64, "aes", 3);
    int bad = 0;
    for (int i = 0; i < 10000; ++i) {
      uint8_t e1[16], d1[16], e2[16], d2[16];
      hw_round(x, x + 16, e1, d1);
      block_store(e2, aes_enc_round(block_load(x), block_load(x + 16)));
      block_store(d2, aes_dec_round(block_load(x), block_load(x + 16)));
      if (std::memcmp(e1, e2, 16) || std::memcmp(d1, d2, 16)) ++bad;
      blake2b(x, 64, x, 64);
    }
    check("aes rounds == AES-NI on 10000 random blocks", std::to_string(bad), "0");
  }
#endif

  // The specification derives its constants from BLAKE2b; check the tables
  // typed into aes_generators.cpp against that derivation through the
  // generators themselves (a zero input exposes keys and initial state).
  uint8_t h[64];
  blake2b(h, 64, "RandomX AesGenerator1R keys", 27);
  uint8_t state[64] = {0}, out[64];
  aes_gen1r_fill(state, out, 64);
  uint8_t expect[64];
  for (int c = 0; c < 4; ++c) {
    Block128 z = {{0, 0, 0, 0}};
    Block128 r = (c & 1) ? aes_enc_round(z, block_load(h + 16 * c)) : aes_dec_round(z, block_load(h + 16 * c));
    block_store(expect + 16 * c, r);
  }
  check("AesGenerator1R keys = Hash512(\"RandomX AesGenerator1R keys\")", hex(out, 64), hex(expect, 64));

  blake2b(h, 64, "RandomX AesGenerator4R keys", 27);
  std::memset(state, 0, 64);  // gen1 wrote its final state back
  aes_gen4r_fill(state, out, 64);
  for (int c = 0; c < 4; ++c) {
    Block128 v = {{0, 0, 0, 0}};
    for (int r = 0; r < 4; ++r)
      v = (c & 1) ? aes_enc_round(v, block_load(h + 16 * r)) : aes_dec_round(v, block_load(h + 16 * r));
    block_store(expect + 16 * c, v);
  }
  check("AesGenerator4R keys = Hash512(\"RandomX AesGenerator4R keys\")", hex(out, 64), hex(expect, 64));

  uint8_t init[64], xk[32];
  blake2b(init, 64, "RandomX AesHash1R state", 23);
  blake2b(xk, 32, "RandomX AesHash1R xkeys", 23);
  aes_hash1r(nullptr, 0, out);
  for (int c = 0; c < 4; ++c) {
    Block128 v = block_load(init + 16 * c);
    for (int r = 0; r < 2; ++r)
      v = (c & 1) ? aes_dec_round(v, block_load(xk + 16 * r)) : aes_enc_round(v, block_load(xk + 16 * r));
    block_store(expect + 16 * c, v);
  }
  check("AesHash1R state/xkeys = Hash512/Hash256 derivations", hex(out, 64), hex(expect, 64));
}

static void test_reciprocal() {
  // 2^x / d for the largest x with result < 2^64.
  check("reciprocal(3)", std::to_string(reciprocal_u32(3)), "12297829382473034410");
  check("reciprocal(0xFFFFFFFF)", std::to_string(reciprocal_u32(0xFFFFFFFFu)), "9223372039002259456");
}

struct Vector {
  std::vector<uint8_t> key;
  std::vector<uint8_t> input;
  const char* epic;
  const char* v1110;
  const char* name;
};

static std::vector<uint8_t> bytes_of(const char* s) { return std::vector<uint8_t>(s, s + std::strlen(s)); }

static std::vector<Vector> vectors() {
  std::vector<uint8_t> hello = bytes_of("Hello, RandomX!");
  hello.resize(128, 0);
  const char* sed = "sed do eiusmod tempor incididunt ut labore et dolore magna aliqua";
  return {
      {std::vector<uint8_t>(32, 0), std::vector<uint8_t>(128, 0),
       "3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4",
       "aeab0ad5852c53042ad48c00eb00faf0805f2908f8785fd27c693387b25d554f", "key 32x00, input 128x00"},
      {std::vector<uint8_t>(32, 0x14), std::vector<uint8_t>(128, 0),
       "dca3dc1b1b602e14b1a87d85aa48ca1390af7013ba5c3c3141c4b2aeb1f52e20",
       "7f34bce2d0cbb798b20d26cbf56ad60488301ee58e38c6172b8b841722f4ec50", "key 32x14, input 128x00"},
      {std::vector<uint8_t>(32, 0x01), hello,
       "f996c6ab13c2fe278c0ab6743d5eef5e14367d3b01838b4103685222a69f49bc",
       "30a153b1236bf1fa944e104563233cddf2d8d24a0158b05c74bf40fa9f9bb2b2", "key 32x01, Hello RandomX"},
      {bytes_of("test key 000"), bytes_of("This is a test"),
       "207d7cedf2a16590bd33d758e413ad129ce9888e05417984f46296252a7ba3d0",
       "639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f", "test key 000 / This is a test"},
      {bytes_of("test key 000"), bytes_of("Lorem ipsum dolor sit amet"),
       "76dd2da840d56d38153e0beaca33e7f862c5ead91a052380d99f3a62bf84579b",
       "300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969", "test key 000 / Lorem ipsum"},
      {bytes_of("test key 000"), bytes_of(sed),
       "109f6a405efe09d302336dce4389127e33aa62d4c782aca7797a628e87839a61",
       "c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8", "test key 000 / sed do"},
      {bytes_of("test key 001"), bytes_of(sed),
       "3cbb82edf9541ab80233cdc47384cea719c8567a8bbaca8f3ff038488ce9c16c",
       "e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc", "test key 001 / sed do"},
  };
}

// Dataset items (SuperscalarHash over the Argon2d cache) for key
// "test key 000", recorded from a build of EpicCash/randomx 04b0df3.
static void check_items(const Cache& cache) {
  struct {
    uint64_t item;
    const char* want;
  } items[] = {
      {0, "db22e25aa8880568f416ff903dc1c991a8b4791436580c2cb778ed6c8ca3f726"
          "554337312b554ddbd112d287fed97dffb96e1fd48e0e983671f2d82ae058f87f"},
      {1, "c9e6396b5bcbae8e384a4415a7305c9065ebe074960d042d58eb95ad8a1d34e4"
          "c35ce614a81652dd364d1d53fb53f8e6bfea4ddcae7fc761d000d9f2d3e3ef84"},
      {12345678, "4416a553eebbca262dc77f3c7de1b2a63d8ba12c2325ce2c164b807ad15200d3"
                 "c4dbf4b432810e25eadd71c695662cf02a013ccb96487152de9e1f890e7b4ad9"},
      {34078718, "5876a62e54e6a58474034eb7e299bc0381b1b34a491393dee4ff84db23426074"
                 "bd0fe9213f85bcc252a9613369caeea2384c7d4622cd88f714a7e9a74d26a2f1"},
  };
  for (const auto& it : items) {
    uint64_t w[8];
    uint8_t b[64];
    cache.dataset_item(it.item, w);
    for (int i = 0; i < 8; ++i) store_le64(b + 8 * i, w[i]);
    std::string name = "dataset item " + std::to_string(it.item) + " (test key 000)";
    check(name.c_str(), hex(b, 64), it.want);
  }
}

static double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static void test_vectors(int only) {
  std::unique_ptr<Cache> cache;
  int idx = 0;
  for (const Vector& v : vectors()) {
    ++idx;
    if (only && idx != only) continue;
    if (!cache || cache->key() != v.key) {
      cache.reset();
      double t0 = now_ms();
      cache.reset(new Cache(v.key.data(), v.key.size()));
      std::printf("     cache init %.0f ms\n", now_ms() - t0);
      if (v.key == bytes_of("test key 000")) check_items(*cache);
    }
    uint8_t out[32];
    double t0 = now_ms();
    randomx_hash(*cache, v.input.data(), v.input.size(), out);
    double t1 = now_ms();
    std::string got = hex(out, 32);
    std::string name = std::string("epic vector: ") + v.name + " (" + std::to_string(int(t1 - t0)) + " ms)";
    check(name.c_str(), got, v.epic);
    if (got == v.v1110) {
      std::printf("FAIL produced the v1.1.10 output\n");
      ++failures;
    }
  }
}

// CPU time of this thread: less disturbed than wall time on a shared machine.
static double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void bench(int n) {
  std::vector<uint8_t> key(32, 0);
  double t0 = now_ms(), c0 = cpu_ms();
  Cache cache(key.data(), key.size());
  double t1 = now_ms(), c1 = cpu_ms();
  std::printf("cache init: %.0f ms wall, %.0f ms cpu\n", t1 - t0, c1 - c0);
  std::unique_ptr<uint8_t[]> sp(new uint8_t[kScratchpadBytes]);
  uint8_t input[128] = {0}, out[32];
  double t2 = now_ms(), c2 = cpu_ms();
  for (int i = 0; i < n; ++i) {
    input[0] = uint8_t(i);
    randomx_hash(cache, input, sizeof input, out, sp.get());
  }
  double t3 = now_ms(), c3 = cpu_ms();
  std::printf("light mode: %.1f ms/hash wall, %.1f ms/hash cpu, over %d hashes\n", (t3 - t2) / n, (c3 - c2) / n, n);
}

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 2 && std::strcmp(argv[1], "--bench") == 0) {
    bench(std::atoi(argv[2]));
    return 0;
  }
  int only = (argc > 2 && std::strcmp(argv[1], "--only") == 0) ? std::atoi(argv[2]) : 0;
  if (!only) {
    test_blake2b();
    test_argon2d();
    test_aes();
    test_reciprocal();
  }
  if (!quick) test_vectors(only);
  std::printf(failures ? "%d FAILED\n" : "all passed\n", failures);
  return failures ? 1 : 0;
}
