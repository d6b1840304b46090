{
  "targets": [
    {
      "target_name": "secp256k1",
      "sources": ["src/addon.cc", "src/arith_ops.cc", "src/bulletproof.cc", "src/msm.cc", "src/scalar.cc"],
      "cflags_cc!": ["-std=gnu++17", "-std=gnu++14"],
      "cflags_cc": ["-std=c++17"],
      "xcode_settings": {
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "GCC_OPTIMIZATION_LEVEL": "3"
      }
    }
  ]
}
