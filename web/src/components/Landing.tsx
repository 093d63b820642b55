// The explorer's front door: what the tool is for, in two lines, and the questions that open a
// preset in compare mode with the plots that answer them, or a view of their own.
import { Link } from 'react-router-dom';

export interface Question {
  text: string;
  /** What the comparison shows, in one line. */
  how: string;
  preset: string;
  schemes: string[];
  plots: string[];
  /** A view of its own that answers the question (the preset in compare mode is then one scenario of it). */
  view?: string;
}

export const questions: Question[] = [
  {
    text: 'Would sharing speed up my web page?',
    how: 'E-TCP’s java page fetched three times over HTTP/1.1’s six connections: its HTML and total page time with independent connections, one E-TCP ensemble and TCP-INT, on the same seed.',
    preset: 'web-page-sharing',
    schemes: ['independent', 'etcp', 'tcp-int'],
    plots: ['cwnd'],
  },
  {
    text: 'Should a repeat visit reuse congestion state?',
    how: 'The same transfer twice: starting cold, from RFC 9040’s temporal cache, and from E-TCP’s cached ensemble with pacing.',
    preset: 'etcp-fig3-temporal',
    schemes: ['independent', 'rfc9040-temporal', 'etcp'],
    plots: ['cwnd'],
  },
  {
    text: 'How do the 1999 schemes compare?',
    how: 'One web-like workload under E-TCP, TCP-INT, the TCBI controllers, TCP/SPAND and the Congestion Manager, against independent TCP.',
    preset: 'scheme-etcp',
    schemes: ['independent', 'etcp', 'tcp-int', 'mv-tcbi', 'fs-tcbi', 'spand', 'congestion-manager'],
    plots: ['cwnd'],
  },
  {
    text: 'What would reuse give my traffic?',
    how: 'A download or a page on your path, again after an idle time: today’s reuse, RFC 9040 and E-TCP against the idle time and the size, with the losses each causes.',
    preset: 'reuse-repeat-visit',
    schemes: ['independent', 'rfc9040-temporal', 'linux-tcp-metrics', 'careful-resume', 'bdp-resume', 'etcp'],
    plots: ['cwnd'],
    view: '/reuse',
  },
];

export const questionLink = (q: Question) => `/?preset=${q.preset}&mode=compare&schemes=${q.schemes.join(',')}&plots=${q.plots.join(',')}`;

/** Where a question's link goes: its own view (started at once: ?run=1), or its preset in compare mode. */
export const questionTarget = (q: Question) => (q.view ? `${q.view}?run=1` : questionLink(q));

export function Landing() {
  return (
    <section className="landing" aria-labelledby="landing-title" data-testid="landing">
      <h2 id="landing-title">Should TCP connections share what they learn about the network?</h2>
      <p>
        tcb-lab simulates TCP control block sharing (RFC 9040, Ensemble-TCP, TCP-INT, TCBI, TCP/SPAND) in your browser, packet by packet, and{' '}
        <Link to="/reproduce">rebuilds the papers’ figures</Link> with their claims checked. Start from a question, a <Link to="/presets">preset</Link>, or the scenario below.
      </p>
      <ul className="questions">
        {questions.map((q) => (
          <li key={q.text}>
            <Link to={questionTarget(q)} className="question">
              {q.text}
            </Link>
            <span className="hint">
              {q.how}
              {q.view && (
                <>
                  {' '}
                  One scenario of it: <Link to={questionLink(q)}>{q.preset} in compare mode</Link>.
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
