import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { DEFAULT_PRESET } from './pages/Explorer';
import { presetScenario } from './sim';
import './styles.css';

// The explorer's preset, asked for before the first render: the WebAssembly module starts loading
// and compiling while React renders.
if (window.location.pathname === '/' && !new URLSearchParams(window.location.search).has('s')) {
  void presetScenario(new URLSearchParams(window.location.search).get('preset') ?? DEFAULT_PRESET).catch(() => undefined);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
