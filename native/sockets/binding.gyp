{
  "targets": [
    {
      "target_name": "sockets",
      "sources": ["src/addon.cc", "src/fanout.cc"],
      "cflags_cc!": ["-std=gnu++17", "-std=gnu++14", "-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-pthread"],
      "ldflags": ["-pthread"]
    }
  ]
}
