// The kernel's side of a transfer as its tracepoints recorded it (the text of a tracefs instance's
// `trace` file, trace_clock mono): every ACK the sender processed (tcp:tcp_probe, fired at the start
// of tcp_rcv_established(), so each line shows the state left by the ACKs before it), each
// retransmission (tcp:tcp_retransmit_skb) and each change of the congestion-avoidance state
// (tcp:tcp_cong_state_set: 0 Open, 1 Disorder, 2 CWR, 3 Recovery, 4 Loss; include/net/tcp.h).

// TCP_INFINITE_SSTHRESH (include/net/tcp.h): ssthresh before the first congestion event.
export const INFINITE_SSTHRESH = 0x7fffffff;
export const CA_STATES = ['open', 'disorder', 'cwr', 'recovery', 'loss'];

const LINE = /^\s*.+?-\d+\s+\[\d+\]\s+\S+\s+(\d+)\.(\d+): (tcp_probe|tcp_retransmit_skb|tcp_cong_state_set): (.*)$/;

function fields(text) {
  const out = {};
  for (const part of text.split(' ')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

// The events of one connection: the sender's socket, known by its cookie (SO_COOKIE, which
// tcp_probe prints in hex) and by its ports (the other two events print no cookie).
export function parseTrace(text, { cookie, localPort, port }) {
  const probes = { tNs: [], cwnd: [], ssthresh: [], srttUs: [], ackedBytes: [], sentBytes: [], sndWnd: [] };
  const retransmits = [];
  const states = [];
  let una0 = null;
  const cookieHex = cookie == null ? null : BigInt(cookie).toString(16);
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    // Seconds and microseconds as printed; integer arithmetic keeps every nanosecond exact.
    const tNs = Number(BigInt(m[1]) * 1000000000n + BigInt(m[2].padEnd(9, '0')));
    const f = fields(m[4]);
    if (m[3] === 'tcp_probe') {
      if (cookieHex != null && f.sock_cookie !== cookieHex) continue;
      const una = Number.parseInt(f.snd_una, 16);
      const nxt = Number.parseInt(f.snd_nxt, 16);
      if (una0 == null) una0 = una;
      probes.tNs.push(tNs);
      probes.cwnd.push(Number(f.snd_cwnd));
      probes.ssthresh.push(Number(f.ssthresh));
      probes.srttUs.push(Number(f.srtt));
      // Sequence numbers are 32-bit: relative to the first ACK's, modulo 2^32.
      probes.ackedBytes.push((una - una0) >>> 0);
      probes.sentBytes.push((nxt - una0) >>> 0);
      probes.sndWnd.push(Number(f.snd_wnd));
    } else if (Number(f.sport) === localPort && Number(f.dport) === port) {
      if (m[3] === 'tcp_retransmit_skb') retransmits.push(tNs);
      else states.push({ tNs, state: Number(f.cong_state) });
    }
  }
  return { probes, retransmits, states };
}
