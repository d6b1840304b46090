// One message written to many sockets by several threads at once. Each send to a loopback or
// LAN peer is a syscall of 10-15 us (on loopback it also runs the receiver's TCP path), so a
// thousand miners take 10-30 ms from one thread; helpers started with the addon share them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

class FanOut {
 public:
  // `helpers` threads beside the caller; they start now, at the caller's scheduling priority.
  explicit FanOut(unsigned helpers);
  ~FanOut();
  FanOut(const FanOut&) = delete;
  FanOut& operator=(const FanOut&) = delete;

  // Sends `len` bytes of `data` to each of the `n` descriptors, non-blocking and without
  // SIGPIPE. written[i]: bytes the kernel took (possibly fewer than len), or -errno.
  void SendAll(const int32_t* fds, int32_t* written, size_t n, const uint8_t* data, size_t len);

  unsigned helpers() const { return static_cast<unsigned>(threads_.size()); }

 private:
  struct Job {
    const int32_t* fds;
    int32_t* written;
    size_t n;
    const uint8_t* data;
    size_t len;
  };

  void Run();
  void Drain(const Job& job);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  Job job_{};
  std::atomic<size_t> next_{0};
  uint64_t generation_ = 0;
  unsigned busy_ = 0;
  bool stopping_ = false;
};
