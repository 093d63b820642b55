import { describe, expect, it } from 'vitest';
import stored from '../src/data/linux-calibration.json';
import { formatMetric, formatOff, outsideTargets, overlayEnd, stepPoints, type Calibration, type CalibrationCase } from '../src/data/linuxCalibration';

const calibration = stored as unknown as Calibration;

describe('the stored calibration against Linux', () => {
  it('has every case with the kernel’s runs, tcpsim’s window and the targets', () => {
    expect(calibration.cases.length).toBeGreaterThan(0);
    expect(calibration.targets).toEqual({ completionS: 5, goodputBps: 2, retransmissions: 25, ssExitCwnd: 10 });
    for (const c of calibration.cases) {
      expect(c.kernel.length, c.id).toBeGreaterThanOrEqual(1);
      for (const k of c.kernel) expect(k.window.tS.length, c.id).toBe(k.window.cwnd.length);
      expect(c.rows.map((r) => r.key), c.id).toContain('retransmissions');
    }
  });
});

describe('window overlays and verdicts', () => {
  it('draws a window as steps held to the end', () => {
    expect(stepPoints({ tS: [1, 2], cwnd: [10, 20] }, 3)).toEqual([[1, 10], [2, 10], [2, 20], [3, 20]]);
    expect(stepPoints({ tS: [], cwnd: [] }, 3)).toEqual([]);
  });

  it('names the metrics outside their targets, and formats values in their units', () => {
    const c = {
      rows: [
        { key: 'completionS', name: 'completion time', unit: 's', within: true },
        { key: 'retransmissions', name: 'retransmissions', unit: '', within: false },
        { key: 'firstRetransmitS', name: 'first retransmission', unit: 's', within: null },
      ],
      kernel: [{ window: { tS: [0, 0.5], cwnd: [10, 12] } }],
      tcpsim: { window: { tS: [0, 0.7], cwnd: [10, 11] } },
    } as unknown as CalibrationCase;
    expect(outsideTargets(c)).toEqual(['retransmissions']);
    expect(overlayEnd(c)).toBe(0.7);
    expect(formatMetric(0.87312, 's')).toBe('0.873');
    expect(formatMetric(9.5881e6, 'Mb/s')).toBe('9.588');
    expect(formatMetric(30.5, 'segments')).toBe('30.5');
    expect(formatMetric(null, 's')).toBe('—');
    expect(formatOff(-0.34)).toBe('−0.34 %');
    expect(formatOff(133.33)).toBe('+133.3 %');
  });
});
