// Routes: explorer `/`, saved experiment `/e/:id`, batch `/b/:id`, presets gallery `/presets`,
// reproductions of the seed papers `/reproduce` and `/reproduce/:experiment`, a reproduction
// run on the server `/r/:id`, "What would reuse give my traffic?" `/reuse`, and "tcpsim against
// Linux" `/linux` (the stored calibration against the kernel).
import { lazy, Suspense, useContext, useRef } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { ServerBanner, ServerContext, ServerProvider } from './components/ServerStatus';
import { SkipLink } from './components/SkipLink';
import { ExperimentPage } from './pages/ExperimentPage';
import { Explorer } from './pages/Explorer';
import { isExplorerEdit } from './pages/explorer/useScenarioInUrl';

// Pages other than the explorer load when first visited: the explorer's first plot does not wait
// for their code (the reproductions page brings a Markdown renderer).
const BatchPage = lazy(() => import('./pages/BatchPage').then((m) => ({ default: m.BatchPage })));
const PresetsPage = lazy(() => import('./pages/PresetsPage').then((m) => ({ default: m.PresetsPage })));
const ReproducePage = lazy(() => import('./pages/ReproducePage').then((m) => ({ default: m.ReproducePage })));
const ReproductionRunPage = lazy(() => import('./pages/ReproductionRunPage').then((m) => ({ default: m.ReproductionRunPage })));
const ReusePage = lazy(() => import('./pages/ReusePage').then((m) => ({ default: m.ReusePage })));
const LinuxCalibrationPage = lazy(() => import('./pages/LinuxCalibrationPage').then((m) => ({ default: m.LinuxCalibrationPage })));

function Shell() {
  const server = useContext(ServerContext);
  const location = useLocation();
  // A new explorer for every navigation to it, but not for the explorer's own address updates
  // (its scenario as it is edited: pages/explorer/useScenarioInUrl.ts).
  const explorerKeyRef = useRef('');
  if (!isExplorerEdit(location.state)) explorerKeyRef.current = location.search + (location.key ?? '');
  const explorerKey = explorerKeyRef.current;
  return (
    <>
      <SkipLink target="content">Skip to content</SkipLink>
      <header className="top">
        <h1>tcb-lab</h1>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Explorer
          </NavLink>
          <NavLink to="/presets">Presets</NavLink>
          <NavLink to="/reproduce">Reproductions</NavLink>
          <NavLink to="/reuse">Reuse</NavLink>
          <NavLink to="/linux">Against Linux</NavLink>
        </nav>
        <span className="tagline">TCP control block sharing, simulated in your browser</span>
      </header>
      <ServerBanner state={server} />
      <div id="content" tabIndex={-1}>
        <Suspense fallback={<main className="page"><p>Loading…</p></main>}>
        <Routes>
          <Route path="/" element={<Explorer key={explorerKey} />} />
          <Route path="/e/:id" element={<ExperimentPage />} />
          <Route path="/b/:id" element={<BatchPage />} />
          <Route path="/presets" element={<PresetsPage />} />
          <Route path="/reproduce" element={<ReproducePage />} />
          <Route path="/reproduce/:experiment" element={<ReproducePage />} />
          <Route path="/r/:id" element={<ReproductionRunPage />} />
          <Route path="/reuse" element={<ReusePage />} />
          <Route path="/linux" element={<LinuxCalibrationPage />} />
          <Route
            path="*"
            element={
              <main className="page">
                <p className="error" role="alert">
                  There is no page at {location.pathname}.
                </p>
              </main>
            }
          />
        </Routes>
        </Suspense>
      </div>
    </>
  );
}

export function App() {
  return (
    <ServerProvider>
      <Shell />
    </ServerProvider>
  );
}
