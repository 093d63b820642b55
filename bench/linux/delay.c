// A propagation-delay line for the Linux calibration testbed (bench/linux/testbed.mjs): it creates
// a TUN device in the router's network namespace, reads every packet the router routes into it,
// holds it for the one-way delay (plus optional jitter) and writes it back, where the router
// forwards it on to its destination. It stands in for netem, which this kernel lacks.
//
// Timing is the point. The program runs at real-time priority (SCHED_FIFO) with its memory locked,
// sleeps until a little before the next packet is due (--early-us) and spins the rest, so that a
// loaded machine adds microseconds rather than milliseconds; at exit it prints how late each packet
// left against its due time (median, 99th percentile, maximum), the testbed's accuracy line.
//
//   delay --tun NAME --delay-us D [--reverse-delay-us D2] [--rate-mbps R --framing-bytes F]
//         [--jitter-us J] [--loss P] [--reverse-loss P] [--seed S] [--forward-dst A.B.C.D]
//         [--early-us E] [--priority N] [--capacity PACKETS]
//
// With --rate-mbps, each packet is held one transmission time longer, (its length + F) * 8 / R:
// the bottleneck after the delay line is a token bucket (tbf), which lets a packet go the moment its
// tokens are complete, at once when the bucket is full, so the serialisation a link spends on each
// packet is already in tbf's queueing except for the first packet after an idle period. Adding it
// here makes the path the link a simulator models (a packet arrives one transmission time plus the
// propagation delay after it starts), for packets of every size: the same base RTT for a SYN and for
// a full segment, the same queueing after it.
//
// Packets to --forward-dst form the forward lane (the data direction), all others the reverse
// lane, delayed by D2 where it is given (D otherwise); --loss drops forward packets, --reverse-loss reverse ones, each with that probability
// (independently, from a xoshiro256** stream seeded by --seed). Jitter draws each packet's delay
// uniformly from [D - J, D + J], but a packet never leaves before the one ahead of it in its lane
// (netem reorders; a path of one queue does not). It prints "ready <tun>" once the device exists
// and one JSON line of statistics on SIGTERM or SIGINT, and on SIGUSR1 too, after which it starts
// counting afresh (so that each transfer over the same path gets its own accuracy line).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kMaxPacket = 2048, kLanes = 2, kHistogramUs = 200000 };

struct slot {
  int64_t due_ns;
  uint16_t length;
  uint8_t data[kMaxPacket];
};

// A fixed ring of packet slots per lane: due times within a lane never decrease.
struct lane {
  struct slot* slots;
  uint32_t head, count;
  int64_t last_due_ns;
  uint64_t forwarded, lost, overflowed;
};

static volatile sig_atomic_t stopping, reporting;
static void on_signal(int sig) {
  if (sig == SIGUSR1) reporting = 1;
  else stopping = 1;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char* what) {
  fprintf(stderr, "delay: %s: %s\n", what, strerror(errno));
  exit(1);
}

// xoshiro256** (Blackman and Vigna), seeded through splitmix64.
static uint64_t rng_state[4];
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t rng_next(void) {
  const uint64_t result = rotl(rng_state[1] * 5, 7) * 9;
  const uint64_t t = rng_state[1] << 17;
  rng_state[2] ^= rng_state[0];
  rng_state[3] ^= rng_state[1];
  rng_state[1] ^= rng_state[2];
  rng_state[0] ^= rng_state[3];
  rng_state[2] ^= t;
  rng_state[3] = rotl(rng_state[3], 45);
  return result;
}
static void rng_seed(uint64_t seed) {
  for (int i = 0; i < 4; ++i) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    rng_state[i] = z ^ (z >> 31);
  }
}
static double rng_uniform(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }

// How late packets left, in whole microseconds: a histogram up to 200 ms and the maximum.
static uint64_t late_histogram[kHistogramUs + 1];
static int64_t late_max_ns;
static uint64_t late_count;

static void record_lateness(int64_t late_ns) {
  if (late_ns < 0) late_ns = 0;
  if (late_ns > late_max_ns) late_max_ns = late_ns;
  int64_t us = late_ns / 1000;
  late_histogram[us > kHistogramUs ? kHistogramUs : us]++;
  late_count++;
}

static double late_quantile_us(double q) {
  if (late_count == 0) return 0;
  uint64_t rank = (uint64_t)(q * (double)(late_count - 1)) + 1, seen = 0;
  for (int us = 0; us <= kHistogramUs; ++us) {
    seen += late_histogram[us];
    if (seen >= rank) return us;
  }
  return kHistogramUs;
}

// One JSON line: packets per lane (forward, reverse) and how late they left.
static void report(const struct lane* lanes, const int64_t* lane_delay_ns, int64_t jitter_ns, int64_t early_ns,
                   int priority) {
  printf("{\"forwarded\":[%llu,%llu],\"lost\":[%llu,%llu],\"overflowed\":[%llu,%llu],"
         "\"lateUs\":{\"count\":%llu,\"p50\":%.0f,\"p99\":%.0f,\"p999\":%.0f,\"max\":%.1f},"
         "\"delayUs\":[%.1f,%.1f],\"jitterUs\":%.1f,\"earlyUs\":%.1f,\"priority\":%d}\n",
         (unsigned long long)lanes[0].forwarded, (unsigned long long)lanes[1].forwarded,
         (unsigned long long)lanes[0].lost, (unsigned long long)lanes[1].lost,
         (unsigned long long)lanes[0].overflowed, (unsigned long long)lanes[1].overflowed,
         (unsigned long long)late_count, late_quantile_us(0.5), late_quantile_us(0.99), late_quantile_us(0.999),
         (double)late_max_ns / 1000, (double)lane_delay_ns[0] / 1000, (double)lane_delay_ns[1] / 1000,
         (double)jitter_ns / 1000, (double)early_ns / 1000, priority);
  fflush(stdout);
}

// Starts counting afresh.
static void reset_counts(struct lane* lanes) {
  for (int i = 0; i < kLanes; ++i) lanes[i].forwarded = lanes[i].lost = lanes[i].overflowed = 0;
  memset(late_histogram, 0, sizeof late_histogram);
  late_max_ns = 0;
  late_count = 0;
}

static int open_tun(const char* name) {
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("open /dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) die("TUNSETIFF");
  return fd;
}

static void usage(void) {
  fprintf(stderr,
          "usage: delay --tun NAME --delay-us D [--reverse-delay-us D2] [--rate-mbps R --framing-bytes F] [--jitter-us J] [--loss P] [--reverse-loss P] [--seed S]\n"
          "             [--forward-dst A.B.C.D] [--early-us E] [--priority N (0: no real-time)] [--capacity PACKETS]\n");
  exit(2);
}

int main(int argc, char** argv) {
  const char* tun_name = NULL;
  int64_t delay_ns = -1, reverse_delay_ns = -1, jitter_ns = 0, early_ns = 50000;
  double rate_mbps = 0;
  int framing_bytes = 0;
  double loss[kLanes] = {0, 0};
  uint64_t seed = 1;
  int priority = 50;
  uint32_t capacity = 8192;
  struct in_addr forward_dst = {0};
  static const struct option options[] = {
      {"tun", required_argument, 0, 't'},       {"delay-us", required_argument, 0, 'd'},
      {"reverse-delay-us", required_argument, 0, 'D'},
      {"rate-mbps", required_argument, 0, 'r'},  {"framing-bytes", required_argument, 0, 'F'},
      {"jitter-us", required_argument, 0, 'j'}, {"loss", required_argument, 0, 'l'},
      {"reverse-loss", required_argument, 0, 'L'}, {"seed", required_argument, 0, 's'},
      {"forward-dst", required_argument, 0, 'f'}, {"early-us", required_argument, 0, 'e'},
      {"priority", required_argument, 0, 'p'},  {"capacity", required_argument, 0, 'c'},
      {0, 0, 0, 0}};
  for (int c; (c = getopt_long(argc, argv, "", options, NULL)) != -1;) {
    switch (c) {
      case 't': tun_name = optarg; break;
      case 'd': delay_ns = (int64_t)(atof(optarg) * 1000); break;
      case 'D': reverse_delay_ns = (int64_t)(atof(optarg) * 1000); break;
      case 'r': rate_mbps = atof(optarg); break;
      case 'F': framing_bytes = atoi(optarg); break;
      case 'j': jitter_ns = (int64_t)(atof(optarg) * 1000); break;
      case 'l': loss[0] = atof(optarg); break;
      case 'L': loss[1] = atof(optarg); break;
      case 's': seed = strtoull(optarg, NULL, 10); break;
      case 'f':
        if (inet_pton(AF_INET, optarg, &forward_dst) != 1) usage();
        break;
      case 'e': early_ns = (int64_t)(atof(optarg) * 1000); break;
      case 'p': priority = atoi(optarg); break;
      case 'c': capacity = (uint32_t)strtoul(optarg, NULL, 10); break;
      default: usage();
    }
  }
  if (reverse_delay_ns < 0) reverse_delay_ns = delay_ns;
  const int64_t lane_delay_ns[kLanes] = {delay_ns, reverse_delay_ns};
  if (!tun_name || delay_ns < 0 || jitter_ns < 0 || jitter_ns > delay_ns || jitter_ns > reverse_delay_ns ||
      capacity == 0 || loss[0] < 0 || loss[0] > 1 || loss[1] < 0 || loss[1] > 1 || rate_mbps < 0 || framing_bytes < 0)
    usage();
  rng_seed(seed);

  struct lane lanes[kLanes];
  memset(lanes, 0, sizeof lanes);
  for (int i = 0; i < kLanes; ++i) {
    lanes[i].slots = calloc(capacity, sizeof(struct slot));
    if (!lanes[i].slots) die("calloc");
  }
  // Locked memory and a real-time class: no page fault and no ordinary task delays a release.
  if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) die("mlockall");
  if (priority > 0) {
    struct sched_param param = {.sched_priority = priority};
    if (sched_setscheduler(0, SCHED_FIFO, &param) < 0) die("sched_setscheduler(SCHED_FIFO)");
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  const int fd = open_tun(tun_name);
  printf("ready %s\n", tun_name);
  fflush(stdout);

  uint8_t buffer[kMaxPacket];
  while (!stopping) {
    if (reporting) {
      reporting = 0;
      report(lanes, lane_delay_ns, jitter_ns, early_ns, priority);
      reset_counts(lanes);
    }
    // Everything the router has routed into the device, stamped as it is read.
    for (;;) {
      ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) break;
        die("read");
      }
      if (n < 20) continue;
      const int64_t arrived_ns = now_ns();
      struct in_addr dst;
      memcpy(&dst, buffer + 16, sizeof dst);
      const int which = dst.s_addr == forward_dst.s_addr ? 0 : 1;
      struct lane* lane = &lanes[which];
      if (loss[which] > 0 && rng_uniform() < loss[which]) {
        lane->lost++;
        continue;
      }
      if (lane->count == capacity) {
        lane->overflowed++;
        continue;
      }
      int64_t due_ns = arrived_ns + lane_delay_ns[which];
      // One transmission time at the bottleneck's rate: bits / (Mb/s) is microseconds.
      if (rate_mbps > 0) due_ns += (int64_t)((double)(n + framing_bytes) * 8 * 1000 / rate_mbps);
      if (jitter_ns > 0) due_ns += (int64_t)((rng_uniform() * 2 - 1) * (double)jitter_ns);
      if (due_ns < lane->last_due_ns) due_ns = lane->last_due_ns;
      lane->last_due_ns = due_ns;
      struct slot* s = &lane->slots[(lane->head + lane->count) % capacity];
      s->due_ns = due_ns;
      s->length = (uint16_t)n;
      memcpy(s->data, buffer, (size_t)n);
      lane->count++;
    }
    // Release what is due, lane heads in due order.
    int64_t next_due_ns = INT64_MAX;
    for (;;) {
      struct lane* first = NULL;
      for (int i = 0; i < kLanes; ++i) {
        if (lanes[i].count > 0 && (!first || lanes[i].slots[lanes[i].head].due_ns < first->slots[first->head].due_ns))
          first = &lanes[i];
      }
      if (!first) break;
      struct slot* s = &first->slots[first->head];
      const int64_t t = now_ns();
      if (s->due_ns > t) {
        next_due_ns = s->due_ns;
        break;
      }
      if (write(fd, s->data, s->length) < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR) die("write");
      record_lateness(now_ns() - s->due_ns);
      first->forwarded++;
      first->head = (first->head + 1) % capacity;
      first->count--;
    }
    // Sleep in poll until a packet arrives or until a little before the next one is due; within
    // that margin, spin (reading arrivals on the way).
    const int64_t wait_ns = next_due_ns == INT64_MAX ? 100000000 : next_due_ns - now_ns() - early_ns;
    if (wait_ns <= 0) continue;
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    struct timespec timeout = {.tv_sec = wait_ns / 1000000000, .tv_nsec = wait_ns % 1000000000};
    if (ppoll(&pfd, 1, &timeout, NULL) < 0 && errno != EINTR) die("ppoll");
  }

  report(lanes, lane_delay_ns, jitter_ns, early_ns, priority);
  return 0;
}
