{
  "targets": [
    {
      "target_name": "randomx",
      "sources": [
        "src/addon.cpp",
        "src/aes.cpp",
        "src/aes_generators.cpp",
        "src/argon2d.cpp",
        "src/blake2b.cpp",
        "src/blake2_generator.cpp",
        "src/cache.cpp",
        "src/cache_store.cpp",
        "src/program.cpp",
        "src/randomx.cpp",
        "src/superscalar.cpp",
        "src/vm.cpp"
      ],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17", "-std=gnu++14", "-O3"],
      "cflags_cc": [
        "-std=c++17",
        "-fexceptions",
        "-O2",
        "-ffp-contract=off",
        "-frounding-math",
        "-fno-math-errno"
      ],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "OTHER_CPLUSPLUSFLAGS": ["-ffp-contract=off", "-frounding-math", "-fno-math-errno"]
      }
    }
  ]
}
