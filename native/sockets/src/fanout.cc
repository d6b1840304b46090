#include "fanout.h"

#include <sys/socket.h>

#include <cerrno>

namespace {

int32_t SendOne(int fd, const uint8_t* data, size_t len) {
  for (;;) {
    ssize_t r = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (r >= 0) return static_cast<int32_t>(r);
    if (errno != EINTR) return -errno;
  }
}

}  // namespace

FanOut::FanOut(unsigned helpers) {
  for (unsigned i = 0; i < helpers; i++) threads_.emplace_back([this] { Run(); });
}

FanOut::~FanOut() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

// Every thread takes the next descriptor until none is left: a helper the scheduler runs late
// leaves its share to the others.
void FanOut::Drain(const Job& job) {
  for (size_t i = next_.fetch_add(1); i < job.n; i = next_.fetch_add(1))
    job.written[i] = SendOne(job.fds[i], job.data, job.len);
}

void FanOut::Run() {
  uint64_t seen = 0;
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    Drain(job);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_--;
    }
    done_.notify_one();
  }
}

void FanOut::SendAll(const int32_t* fds, int32_t* written, size_t n, const uint8_t* data,
                     size_t len) {
  Job job{fds, written, n, data, len};
  // A few sockets are not worth waking anyone.
  if (threads_.empty() || n < 16) {
    next_.store(0);
    Drain(job);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = job;
    next_.store(0);
    busy_ = static_cast<unsigned>(threads_.size());
    generation_++;
  }
  start_.notify_all();
  Drain(job);
  // The caller's buffers must outlive every helper's last send.
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
}
