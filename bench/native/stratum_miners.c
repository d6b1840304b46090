/*
 * Stratum miners for bench/stratum.ts: N connections to the node's stratum port, each logged in,
 * each noting the moment (CLOCK_MONOTONIC, the clock of Node's process.hrtime) a job carrying an
 * awaited text arrives. Real miners each read their socket on their own machine; a thousand of
 * them in one JavaScript process would be read one after another through Node's stream layer
 * and the last would be timed late by the reading itself. Here a read costs a syscall and a
 * memmem.
 *
 * WebSocket subscribers of the node's template feed are held the same way (group 1): after the
 * upgrade request their stream is searched as it comes, frames and all (a template is one
 * unmasked text frame).
 *
 * Usage: stratum_miners PORT COUNT [WSPORT WSCOUNT WSPATH]. Commands on stdin, one per line:
 *   await G TEXT forget group G's arrivals (0: miners, 1: subscribers), wait for TEXT on each
 *                of its connections: prints "ok", then "all" once every awaited one has it
 *   report G     print "arrived T1 T2 ..." (nanoseconds, 0 for a connection still waiting)
 *   job          print "job LINE", the last job line miner 0 received
 * A connection the node closes stops counting (it reports 0); any other error ends the process
 * with a message on stderr.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_AWAITED 256
#define CHUNK 65536
#define MAX_LINE 65536

struct miner {
  int fd;
  int group;
  int closed;
  uint64_t arrived;
  size_t tail_len;
  char tail[MAX_AWAITED];
};

struct group {
  struct miner *conns;
  int count;
  char awaited[MAX_AWAITED];
  size_t awaited_len;
};

static struct group groups[2];
static int waiting;
/* Connection 0's partial line and its last whole job line. */
static char line[MAX_LINE];
static size_t line_len;
static char last_job[MAX_LINE];

static void die(const char *what) {
  fprintf(stderr, "stratum_miners: %s: %s\n", what, strerror(errno));
  exit(1);
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int dial(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) die("socket");
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static void send_all(int fd, const char *data, size_t len, const char *what) {
  if (send(fd, data, len, MSG_NOSIGNAL) != (ssize_t)len) die(what);
}

static int open_miner(int port) {
  int fd = dial(port);
  static const char login[] = "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"login\",\"params\":"
                              "{\"login\":\"bench\",\"pass\":\"\",\"agent\":\"bench\"}}\n";
  send_all(fd, login, sizeof login - 1, "login");
  return fd;
}

static int open_subscriber(int port, const char *path) {
  int fd = dial(port);
  char req[512];
  int n = snprintf(req, sizeof req,
                   "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n",
                   path, port);
  if (n <= 0 || n >= (int)sizeof req) die("path");
  send_all(fd, req, (size_t)n, "upgrade");
  return fd;
}

/* A connection is done waiting: arrived, or closed. */
static void done_waiting(void) {
  if (--waiting == 0) {
    printf("all\n");
    fflush(stdout);
  }
}

/* Connection 0 keeps its lines whole, to hand the last job to the bench. */
static void keep_lines(const char *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (data[i] != '\n') {
      if (line_len < MAX_LINE - 1) line[line_len++] = data[i];
      continue;
    }
    line[line_len] = 0;
    if (strncmp(line, "{\"id\":\"Stratum\"", 15) == 0) memcpy(last_job, line, line_len + 1);
    line_len = 0;
  }
}

/* Looks for the awaited text in the tail of the previous read followed by this one. */
static void match(struct miner *m, const char *data, size_t n, uint64_t at) {
  struct group *g = &groups[m->group];
  const char *awaited = g->awaited;
  size_t awaited_len = g->awaited_len;
  if (m->arrived != 0 || awaited_len == 0) return;
  static char joined[MAX_AWAITED + CHUNK];
  memcpy(joined, m->tail, m->tail_len);
  memcpy(joined + m->tail_len, data, n);
  size_t len = m->tail_len + n;
  if (memmem(joined, len, awaited, awaited_len) != NULL) {
    m->arrived = at;
    m->tail_len = 0;
    done_waiting();
    return;
  }
  size_t keep = len < awaited_len - 1 ? len : awaited_len - 1;
  memmove(m->tail, joined + len - keep, keep);
  m->tail_len = keep;
}

static void on_readable(struct miner *m) {
  static char data[CHUNK];
  ssize_t n = recv(m->fd, data, sizeof data, MSG_DONTWAIT);
  uint64_t at = now_ns();
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (n <= 0) {
    close(m->fd);
    m->closed = 1;
    struct group *g = &groups[m->group];
    if (m->arrived == 0 && g->awaited_len > 0) done_waiting();
    return;
  }
  match(m, data, (size_t)n, at);
  if (m == groups[0].conns) keep_lines(data, (size_t)n);
}

static void command(char *cmd) {
  cmd[strcspn(cmd, "\n")] = 0;
  if (strncmp(cmd, "await ", 6) == 0 && (cmd[6] == '0' || cmd[6] == '1') && cmd[7] == ' ') {
    struct group *g = &groups[cmd[6] - '0'];
    g->awaited_len = strlen(cmd + 8);
    if (g->awaited_len == 0 || g->awaited_len >= MAX_AWAITED) {
      fprintf(stderr, "stratum_miners: bad await\n");
      exit(1);
    }
    memcpy(g->awaited, cmd + 8, g->awaited_len);
    for (int i = 0; i < g->count; i++) {
      g->conns[i].arrived = 0;
      g->conns[i].tail_len = 0;
      if (!g->conns[i].closed) waiting++;
    }
    printf("ok\n");
  } else if (strncmp(cmd, "report ", 7) == 0 && (cmd[7] == '0' || cmd[7] == '1')) {
    struct group *g = &groups[cmd[7] - '0'];
    printf("arrived");
    for (int i = 0; i < g->count; i++) printf(" %llu", (unsigned long long)g->conns[i].arrived);
    printf("\n");
  } else if (strcmp(cmd, "job") == 0) {
    printf("job %s\n", last_job);
  } else {
    fprintf(stderr, "stratum_miners: unknown command %s\n", cmd);
    exit(1);
  }
  fflush(stdout);
}

/* Opens group `g`'s connections and watches them. */
static void open_group(int ep, int g, int port, int n, const char *path) {
  if (port <= 0 || n < 0 || n > 100000) {
    fprintf(stderr, "stratum_miners: bad port or count\n");
    exit(2);
  }
  groups[g].count = n;
  groups[g].conns = calloc((size_t)n + 1, sizeof(struct miner));
  if (groups[g].conns == NULL) die("calloc");
  for (int i = 0; i < n; i++) {
    struct miner *m = &groups[g].conns[i];
    m->group = g;
    m->fd = path == NULL ? open_miner(port) : open_subscriber(port, path);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = m};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, m->fd, &ev) != 0) die("epoll");
  }
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 6) {
    fprintf(stderr, "usage: stratum_miners PORT COUNT [WSPORT WSCOUNT WSPATH]\n");
    return 2;
  }
  int ep = epoll_create1(0);
  if (ep < 0) die("epoll_create1");
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  if (epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev) != 0) die("epoll stdin");
  open_group(ep, 0, atoi(argv[1]), atoi(argv[2]), NULL);
  open_group(ep, 1, argc == 6 ? atoi(argv[3]) : 1, argc == 6 ? atoi(argv[4]) : 0,
             argc == 6 ? argv[5] : "/");
  printf("ready\n");
  fflush(stdout);
  static char cmd[MAX_AWAITED + 64];
  static struct epoll_event events[1024];
  for (;;) {
    int n = epoll_wait(ep, events, 1024, -1);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < n; i++) {
      struct miner *m = events[i].data.ptr;
      if (m != NULL) {
        on_readable(m);
        continue;
      }
      if (fgets(cmd, sizeof cmd, stdin) == NULL) return 0; /* the bench is gone */
      command(cmd);
    }
  }
}
