// "tcpsim against Linux" (/linux): the stored calibration of tcpsim's `linux` profile against the
// Linux kernel's own TCP over an emulated path (bench/linux, `npm run calibrate:linux`): every case
// with its verdict against the targets, and for the chosen one the kernel's min / median / max beside
// tcpsim and the congestion windows of the kernel's runs and tcpsim's over each other. The chosen
// case is in the link (?case=<id>).
import { useSearchParams } from 'react-router-dom';
import { WindowOverlay, type OverlayLine } from '../charts/WindowOverlay';
import stored from '../data/linux-calibration.json';
import { formatMetric, formatOff, outsideTargets, overlayEnd, type Calibration } from '../data/linuxCalibration';

const calibration = stored as unknown as Calibration;
const KERNEL_COLOURS = ['#D55E00', '#E69F00', '#882255'];

export function LinuxCalibrationPage() {
  const [params, setParams] = useSearchParams();
  const chosen = calibration.cases.find((c) => c.id === params.get('case')) ?? calibration.cases[0];
  const lines: OverlayLine[] = chosen.kernel.map((k, i) => ({
    name: `kernel run ${i + 1}`,
    color: KERNEL_COLOURS[i % KERNEL_COLOURS.length],
    dashed: true,
    window: k.window,
  }));
  if ('window' in chosen.tcpsim) lines.push({ name: 'tcpsim (linux profile)', color: '#0072B2', dashed: false, window: chosen.tcpsim.window });
  const t = calibration.targets;
  return (
    <main className="page">
      <h2>tcpsim against Linux</h2>
      <p>
        The same transfers over the same emulated path, once in the Linux kernel ({calibration.kernel}) and once in tcpsim with its{' '}
        <code>linux</code> profile. The kernel runs in network namespaces: a real-time delay line and a token-bucket bottleneck in a
        router namespace, the kernel’s own Reno, CUBIC and BBR, every ACK traced by <code>tcp:tcp_probe</code>. Each case ran three
        times in the kernel; tcpsim is held to the kernel’s median: completion time within {t.completionS} %, a bulk transfer’s goodput
        within {t.goodputBps} %, retransmissions within {t.retransmissions} %, the window at the end of slow start within {t.ssExitCwnd} %.
        Measured {calibration.measuredOn}; <code>npm run calibrate:linux</code> measures again, and docs/FIDELITY.md (“against Linux”)
        explains every case outside the targets.
      </p>
      <table>
        <caption>Cases</caption>
        <thead>
          <tr>
            <th scope="col">case</th>
            <th scope="col">within the targets</th>
          </tr>
        </thead>
        <tbody>
          {calibration.cases.map((c) => {
            const outside = outsideTargets(c);
            return (
              <tr key={c.id} aria-current={c.id === chosen.id ? 'true' : undefined}>
                <td>
                  <button type="button" onClick={() => setParams({ case: c.id })}>
                    {c.id}
                  </button>
                </td>
                <td>{'error' in c.tcpsim ? `tcpsim refused it: ${c.tcpsim.error}` : outside.length === 0 ? 'yes' : `no: ${outside.join(', ')}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <section aria-labelledby="linux-case">
        <h3 id="linux-case">{chosen.id}</h3>
        <p>{chosen.title}.</p>
        <table>
          <caption>The kernel’s three runs and tcpsim</caption>
          <thead>
            <tr>
              {['metric', 'kernel min', 'median', 'max', 'tcpsim', 'tcpsim vs median', 'target'].map((h) => (
                <th key={h} scope="col">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chosen.rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.unit ? `${r.name} (${r.unit})` : r.name}</th>
                <td>{formatMetric(r.kernel.min, r.unit)}</td>
                <td>{formatMetric(r.kernel.median, r.unit)}</td>
                <td>{formatMetric(r.kernel.max, r.unit)}</td>
                <td>{formatMetric(r.ours, r.unit)}</td>
                <td>{formatOff(r.off)}</td>
                <td>{r.target === null ? '' : `±${r.target} %${r.within === false ? ' — outside' : ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint">
          The kernel’s delay line was late by {chosen.kernel.map((k) => k.delayLineLateUs.p99).join(' / ')} µs at the 99th percentile in
          the three runs (load average {chosen.kernel.map((k) => k.load).join(' / ')}); its smallest RTT{' '}
          {chosen.kernel.map((k) => k.minRttMs.toFixed(2)).join(' / ')} ms.
        </p>
        <WindowOverlay title={`${chosen.id}: congestion window`} lines={lines} endS={overlayEnd(chosen)} />
      </section>
    </main>
  );
}
