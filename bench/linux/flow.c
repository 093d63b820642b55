// The traffic of the Linux calibration testbed (bench/linux/testbed.mjs): one TCP connection per
// transfer, the sender choosing the kernel's congestion control per socket (TCP_CONGESTION: a
// network namespace cannot make cubic its default unless it is globally allowed).
//
//   flow recv --port P [--connections N]
//   flow send --to A.B.C.D --port P --cc NAME (--bytes N | --seconds T) [--sample-us U]
//
// The receiver accepts N connections one after another, reads each to its end and prints one JSON
// line per connection: when it was accepted, when its first and last bytes were read, and the
// bytes received by the end of every millisecond (for the goodput of a timed transfer up to any
// instant). The sender takes the time, connects, writes the bytes (or writes for T seconds), shuts
// its side down and waits for the receiver to close; meanwhile a thread samples the socket through
// sock_diag netlink (an exact lookup of its 4-tuple, so the cost does not grow with the machine's
// socket table): cwnd, ssthresh, the congestion-avoidance state, pacing and delivery rates, RTT, RTO and
// BBR's model (struct tcp_bbr_info). It shuts down only once all it wrote is acknowledged (see
// below). It prints one JSON line with the times, the final tcp_info
// and the samples. Both use CLOCK_MONOTONIC, which every namespace of the machine shares, so the
// receiver's times and the sender's compare directly.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char* what) {
  fprintf(stderr, "flow: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void usage(void) {
  fprintf(stderr,
          "usage: flow recv --port P [--connections N]\n"
          "       flow send --to A.B.C.D --port P --cc NAME (--bytes N | --seconds T) [--sample-us U]\n");
  exit(2);
}

// ---------------------------------------------------------------------------------------------
// Receiver.

static int receive(int port, int connections) {
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) die("socket");
  int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = {INADDR_ANY}};
  if (bind(listener, (struct sockaddr*)&addr, sizeof addr) < 0) die("bind");
  if (listen(listener, 16) < 0) die("listen");
  printf("ready %d\n", port);
  fflush(stdout);

  static char buffer[1 << 18];
  size_t progress_capacity = 1 << 16;
  uint64_t* progress = malloc(progress_capacity * sizeof *progress);
  if (!progress) die("malloc");
  for (int c = 0; c < connections; ++c) {
    int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) die("accept");
    const int64_t accepted_ns = now_ns();
    int64_t first_ns = 0, last_ns = 0;
    uint64_t bytes = 0;
    size_t progress_count = 0;  // progress[i]: bytes read by accepted_ns + (i + 1) ms.
    for (;;) {
      ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0) {
        if (errno == EINTR) continue;
        die("read");
      }
      const int64_t t = now_ns();
      const size_t ms = (size_t)((t - accepted_ns) / 1000000);
      while (progress_count < ms) {
        if (progress_count == progress_capacity) {
          progress_capacity *= 2;
          progress = realloc(progress, progress_capacity * sizeof *progress);
          if (!progress) die("realloc");
        }
        progress[progress_count++] = bytes;
      }
      if (n == 0) break;
      if (bytes == 0) first_ns = t;
      bytes += (uint64_t)n;
      last_ns = t;
    }
    close(fd);
    printf("{\"acceptedNs\":%lld,\"firstByteNs\":%lld,\"lastByteNs\":%lld,\"bytes\":%llu,\"progressBytesPerMs\":[",
           (long long)accepted_ns, (long long)first_ns, (long long)last_ns, (unsigned long long)bytes);
    for (size_t i = 0; i < progress_count; ++i) printf(i ? ",%llu" : "%llu", (unsigned long long)progress[i]);
    printf("]}\n");
    fflush(stdout);
  }
  close(listener);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Sender and its netlink sampler.

struct sample {
  int64_t t_ns;
  uint32_t cwnd, ssthresh, ca_state, rtt_us, min_rtt_us, rto_us, total_retrans, unacked;
  uint64_t pacing_rate, delivery_rate, bytes_acked;
  uint64_t bbr_bw;  // bytes per second
  uint32_t bbr_min_rtt_us, bbr_pacing_gain, bbr_cwnd_gain;
  int has_bbr;
};

struct sampler {
  int netlink;
  struct inet_diag_req_v2 request;
  int64_t period_ns;
  volatile int stop;
  struct sample* samples;
  size_t count, capacity;
};

// One exact sock_diag lookup of the connection: tcp_info and the congestion control's own info.
static int query(struct sampler* s, struct sample* out) {
  struct {
    struct nlmsghdr header;
    struct inet_diag_req_v2 request;
  } message = {.header = {.nlmsg_len = sizeof message, .nlmsg_type = SOCK_DIAG_BY_FAMILY, .nlmsg_flags = NLM_F_REQUEST},
               .request = s->request};
  if (send(s->netlink, &message, sizeof message, 0) < 0) return -1;
  static char reply[16384];
  ssize_t n = recv(s->netlink, reply, sizeof reply, 0);
  if (n < 0) return -1;
  memset(out, 0, sizeof *out);
  out->t_ns = now_ns();
  int found = 0;
  for (struct nlmsghdr* h = (struct nlmsghdr*)reply; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
    if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY) return -1;  // NLMSG_ERROR: the socket is gone.
    struct inet_diag_msg* msg = NLMSG_DATA(h);
    int length = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *msg));
    for (struct rtattr* a = (struct rtattr*)(msg + 1); RTA_OK(a, length); a = RTA_NEXT(a, length)) {
      if (a->rta_type == INET_DIAG_INFO) {
        struct tcp_info info;
        memset(&info, 0, sizeof info);
        size_t size = (size_t)RTA_PAYLOAD(a) < sizeof info ? (size_t)RTA_PAYLOAD(a) : sizeof info;
        memcpy(&info, RTA_DATA(a), size);
        out->cwnd = info.tcpi_snd_cwnd;
        out->ssthresh = info.tcpi_snd_ssthresh;
        out->ca_state = info.tcpi_ca_state;
        out->rtt_us = info.tcpi_rtt;
        out->min_rtt_us = info.tcpi_min_rtt;
        out->rto_us = info.tcpi_rto;
        out->total_retrans = info.tcpi_total_retrans;
        out->unacked = info.tcpi_unacked;
        out->pacing_rate = info.tcpi_pacing_rate;
        out->delivery_rate = info.tcpi_delivery_rate;
        out->bytes_acked = info.tcpi_bytes_acked;
        found = 1;
      } else if (a->rta_type == INET_DIAG_BBRINFO) {
        struct tcp_bbr_info bbr;
        memset(&bbr, 0, sizeof bbr);
        size_t size = (size_t)RTA_PAYLOAD(a) < sizeof bbr ? (size_t)RTA_PAYLOAD(a) : sizeof bbr;
        memcpy(&bbr, RTA_DATA(a), size);
        out->bbr_bw = (uint64_t)bbr.bbr_bw_hi << 32 | bbr.bbr_bw_lo;
        out->bbr_min_rtt_us = bbr.bbr_min_rtt;
        out->bbr_pacing_gain = bbr.bbr_pacing_gain;
        out->bbr_cwnd_gain = bbr.bbr_cwnd_gain;
        out->has_bbr = 1;
      }
    }
  }
  return found ? 0 : -1;
}

static void* sample_loop(void* arg) {
  struct sampler* s = arg;
  int64_t next = now_ns();
  while (!s->stop) {
    struct sample sample;
    if (query(s, &sample) == 0) {
      if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 4096;
        s->samples = realloc(s->samples, s->capacity * sizeof *s->samples);
        if (!s->samples) die("realloc");
      }
      s->samples[s->count++] = sample;
    }
    next += s->period_ns;
    const int64_t wait = next - now_ns();
    if (wait > 0) {
      struct timespec ts = {.tv_sec = wait / 1000000000, .tv_nsec = wait % 1000000000};
      nanosleep(&ts, NULL);
    } else {
      next = now_ns();
    }
  }
  return NULL;
}

static int send_flow(const char* to, int port, const char* cc, long long bytes, double seconds, int64_t sample_ns) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0) die("TCP_CONGESTION");
  // Segments are sent as soon as they fill or the data ends (tcpsim's Nagle is off as well).
  int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) die("TCP_NODELAY");
  struct sockaddr_in peer = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, to, &peer.sin_addr) != 1) usage();

  const int64_t start_ns = now_ns();
  if (connect(fd, (struct sockaddr*)&peer, sizeof peer) < 0) die("connect");
  const int64_t connected_ns = now_ns();

  struct sockaddr_in local;
  socklen_t local_length = sizeof local;
  if (getsockname(fd, (struct sockaddr*)&local, &local_length) < 0) die("getsockname");
  // The socket's cookie, as the tcp:tcp_probe tracepoint prints it (sock_cookie).
  uint64_t cookie = 0;
  socklen_t cookie_length = sizeof cookie;
  if (getsockopt(fd, SOL_SOCKET, SO_COOKIE, &cookie, &cookie_length) < 0) die("SO_COOKIE");
  struct sampler sampler = {.period_ns = sample_ns};
  sampler.netlink = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (sampler.netlink < 0) die("netlink socket");
  sampler.request.sdiag_family = AF_INET;
  sampler.request.sdiag_protocol = IPPROTO_TCP;
  // INET_DIAG_BBRINFO is answered to the VEGASINFO bit (tcp_bbr.c bbr_get_info()).
  sampler.request.idiag_ext = (1 << (INET_DIAG_INFO - 1)) | (1 << (INET_DIAG_VEGASINFO - 1));
  sampler.request.idiag_states = ~0U;
  sampler.request.id.idiag_sport = local.sin_port;
  sampler.request.id.idiag_dport = peer.sin_port;
  sampler.request.id.idiag_src[0] = local.sin_addr.s_addr;
  sampler.request.id.idiag_dst[0] = peer.sin_addr.s_addr;
  sampler.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
  sampler.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
  pthread_t thread;
  if (sample_ns > 0 && pthread_create(&thread, NULL, sample_loop, &sampler) != 0) die("pthread_create");

  static char buffer[1 << 16];
  memset(buffer, 'x', sizeof buffer);
  long long written = 0;
  const int64_t stop_ns = seconds > 0 ? start_ns + (int64_t)(seconds * 1e9) : INT64_MAX;
  for (;;) {
    size_t chunk = sizeof buffer;
    if (bytes >= 0) {
      if (written >= bytes) break;
      if ((long long)chunk > bytes - written) chunk = (size_t)(bytes - written);
    } else if (now_ns() >= stop_ns) {
      break;
    }
    ssize_t n = write(fd, buffer, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      die("write");
    }
    written += n;
  }
  const int64_t written_ns = now_ns();
  // The connection stays ESTABLISHED until everything written is acknowledged: tcp_probe fires only
  // in tcp_rcv_established(), so a FIN sent with the last data would hide the transfer's last ACKs
  // (FIN_WAIT1 goes through tcp_rcv_state_process()). The receiver's last byte, which ends the
  // transfer, does not wait for the FIN.
  for (int outstanding = 1; outstanding > 0;) {
    if (ioctl(fd, SIOCOUTQ, &outstanding) < 0) die("SIOCOUTQ");
    if (outstanding > 0) {
      struct timespec ms = {.tv_sec = 0, .tv_nsec = 1000000};
      nanosleep(&ms, NULL);
    }
  }
  if (shutdown(fd, SHUT_WR) < 0) die("shutdown");
  // The receiver closes once it has read everything: its FIN ends the transfer here.
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0 && errno != EINTR) die("read");
  }
  const int64_t closed_ns = now_ns();
  struct tcp_info info;
  memset(&info, 0, sizeof info);
  socklen_t info_length = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &info_length) < 0) die("TCP_INFO");
  if (sample_ns > 0) {
    sampler.stop = 1;
    pthread_join(thread, NULL);
  }
  close(fd);
  close(sampler.netlink);

  printf("{\"cc\":\"%s\",\"startNs\":%lld,\"connectedNs\":%lld,\"writtenNs\":%lld,\"closedNs\":%lld,\"bytes\":%lld,"
         "\"localPort\":%d,\"cookie\":%llu,",
         cc, (long long)start_ns, (long long)connected_ns, (long long)written_ns, (long long)closed_ns, written,
         ntohs(local.sin_port), (unsigned long long)cookie);
  printf("\"info\":{\"totalRetrans\":%u,\"rto\":%u,\"rtt\":%u,\"rttvar\":%u,\"minRtt\":%u,\"sndMss\":%u,"
         "\"sndCwnd\":%u,\"sndSsthresh\":%u,\"segsOut\":%u,\"dataSegsOut\":%u,\"reordering\":%u,"
         "\"busyTimeUs\":%llu,\"rwndLimitedUs\":%llu,\"sndbufLimitedUs\":%llu,\"delivered\":%u,"
         "\"bytesRetrans\":%llu,\"dsackDups\":%u},",
         info.tcpi_total_retrans, info.tcpi_rto, info.tcpi_rtt, info.tcpi_rttvar, info.tcpi_min_rtt, info.tcpi_snd_mss,
         info.tcpi_snd_cwnd, info.tcpi_snd_ssthresh, info.tcpi_segs_out, info.tcpi_data_segs_out,
         info.tcpi_reordering, (unsigned long long)info.tcpi_busy_time, (unsigned long long)info.tcpi_rwnd_limited,
         (unsigned long long)info.tcpi_sndbuf_limited, info.tcpi_delivered,
         (unsigned long long)info.tcpi_bytes_retrans, info.tcpi_dsack_dups);
  // Samples as columns: tNs, cwnd, ssthresh, caState, rttUs, minRttUs, rtoUs, totalRetrans, unacked,
  // pacingRate and deliveryRate (B/s), bytesAcked, bbrBw (B/s), bbrMinRttUs, bbrPacingGain and
  // bbrCwndGain (<< 8).
  printf("\"sampleColumns\":[\"tNs\",\"cwnd\",\"ssthresh\",\"caState\",\"rttUs\",\"minRttUs\",\"rtoUs\",\"totalRetrans\","
         "\"unacked\",\"pacingRate\",\"deliveryRate\",\"bytesAcked\",\"bbrBw\",\"bbrMinRttUs\",\"bbrPacingGain\","
         "\"bbrCwndGain\"],\"samples\":[");
  for (size_t i = 0; i < sampler.count; ++i) {
    const struct sample* x = &sampler.samples[i];
    printf("%s[%lld,%u,%u,%u,%u,%u,%u,%u,%u,%llu,%llu,%llu,%llu,%u,%u,%u]", i ? "," : "", (long long)x->t_ns, x->cwnd,
           x->ssthresh, x->ca_state, x->rtt_us, x->min_rtt_us, x->rto_us, x->total_retrans, x->unacked,
           (unsigned long long)x->pacing_rate, (unsigned long long)x->delivery_rate,
           (unsigned long long)x->bytes_acked, (unsigned long long)x->bbr_bw, x->bbr_min_rtt_us, x->bbr_pacing_gain,
           x->bbr_cwnd_gain);
  }
  printf("]}\n");
  fflush(stdout);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) usage();
  const char* mode = argv[1];
  const char* to = NULL;
  const char* cc = NULL;
  int port = 0, connections = 1;
  long long bytes = -1;
  double seconds = 0;
  int64_t sample_ns = 2000000;
  static const struct option options[] = {
      {"port", required_argument, 0, 'p'},  {"connections", required_argument, 0, 'n'},
      {"to", required_argument, 0, 't'},    {"cc", required_argument, 0, 'c'},
      {"bytes", required_argument, 0, 'b'}, {"seconds", required_argument, 0, 's'},
      {"sample-us", required_argument, 0, 'u'}, {0, 0, 0, 0}};
  optind = 2;
  for (int c; (c = getopt_long(argc, argv, "", options, NULL)) != -1;) {
    switch (c) {
      case 'p': port = atoi(optarg); break;
      case 'n': connections = atoi(optarg); break;
      case 't': to = optarg; break;
      case 'c': cc = optarg; break;
      case 'b': bytes = atoll(optarg); break;
      case 's': seconds = atof(optarg); break;
      case 'u': sample_ns = (int64_t)(atof(optarg) * 1000); break;
      default: usage();
    }
  }
  if (port <= 0 || port > 65535) usage();
  if (strcmp(mode, "recv") == 0) {
    if (connections < 1) usage();
    return receive(port, connections);
  }
  if (strcmp(mode, "send") == 0) {
    if (!to || !cc || (bytes < 0) == (seconds <= 0)) usage();
    return send_flow(to, port, cc, bytes, seconds, sample_ns);
  }
  usage();
}
