import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { startPlotWorker } from './charts/plotThread';
import { preferredRenderer, preferredThread } from './charts/renderer';
import { DEFAULT_PRESET } from './pages/Explorer';
import { presetScenario } from './sim';
import './styles.css';

// The explorer's preset, asked for before the first render: the WebAssembly module starts loading
// and compiling while React renders.
if (window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('s')) {
  void presetScenario(new URLSearchParams(window.location.search).get('preset') ?? DEFAULT_PRESET).catch(() => undefined);
}

// The plot worker, too: it starts and picks its painter while the first run goes on.
if ((window.location.pathname === '/' || window.location.pathname.startsWith('/e/')) && preferredThread() === 'worker') startPlotWorker(preferredRenderer());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
