// One legend for every plot of a run: connections grouped by content type and traffic item
// (collapsible), a search that finds a connection by name, item or content, and per connection,
// item or group the actions the plots share: hover highlights everywhere, "only" isolates, the
// check box shows or hides.
import { useMemo, useState } from 'react';
import { groupConnections, searchConnections, type ConnectionInfo } from '../data/connections';
import { colorOf } from '../data/palette';
import { useFocus } from '../charts/focus';

const OPEN_BELOW = 13;

export function ConnectionPanel({ infos }: { infos: ConnectionInfo[] }) {
  const { focus, hover, isolate, toggle, showAll, shown } = useFocus();
  const groups = useMemo(() => groupConnections(infos), [infos]);
  const [query, setQuery] = useState('');
  const found = useMemo(() => (query.trim() ? searchConnections(infos, query).slice(0, 30) : []), [infos, query]);
  const byFlow = useMemo(() => new Map(infos.map((c) => [c.flow, c])), [infos]);
  const shownCount = infos.filter((c) => shown(c.flow)).length;
  if (infos.length === 0) return null;

  const chip = (flow: number) => {
    const c = byFlow.get(flow)!;
    const on = shown(flow);
    return (
      <li key={flow} className={focus.hovered === flow ? 'conn hovered' : 'conn'}>
        <input
          type="checkbox"
          checked={on}
          onChange={() => toggle([flow])}
          aria-label={`Show ${c.name}`}
          onFocus={() => hover(flow)}
          onBlur={() => hover(null)}
        />
        <button
          type="button"
          className="conn-name"
          onMouseEnter={() => hover(flow)}
          onMouseLeave={() => hover(null)}
          onFocus={() => hover(flow)}
          onBlur={() => hover(null)}
          onClick={() => isolate([flow])}
          aria-pressed={!!focus.isolated && focus.isolated.size === 1 && focus.isolated.has(flow)}
          title="Highlight in every plot; click to show only this connection"
          data-flow={flow}
        >
          <span className="swatch" style={{ background: on ? colorOf(flow) : 'transparent', borderColor: colorOf(flow) }} />
          {c.name}
        </button>
      </li>
    );
  };

  const groupActions = (label: string, flows: number[]) => {
    const hiddenAll = flows.every((f) => !shown(f));
    return (
      <span className="group-actions">
        <button type="button" onClick={() => isolate(flows)} aria-label={`Show only ${label}`}>
          only
        </button>
        <button type="button" onClick={() => toggle(flows)} aria-label={`${hiddenAll ? 'Show' : 'Hide'} ${label}`}>
          {hiddenAll ? 'show' : 'hide'}
        </button>
      </span>
    );
  };

  return (
    <section className="connections" aria-label="Connections" data-testid="connection-panel">
      <div className="connections-head">
        <h3>
          Connections <span className="hint">({shownCount} of {infos.length} shown; hover to highlight in every plot, click to isolate)</span>
        </h3>
        {(focus.isolated || focus.hidden.size > 0) && (
          <button type="button" onClick={showAll} data-testid="show-all">
            Show all
          </button>
        )}
        <label className="inline search">
          Find{' '}
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="name, item or content" aria-label="Find a connection" />
        </label>
      </div>
      {query.trim() && (
        <ul className="conn-list found" aria-label="Connections found" aria-live="polite">
          {found.length === 0 ? <li className="hint">No connection matches “{query}”.</li> : found.map((c) => chip(c.flow))}
        </ul>
      )}
      <ul className="conn-groups">
        {groups.map((g) => (
          <li key={g.key}>
            <details open={infos.length < OPEN_BELOW}>
              <summary>
                <span className="group-name">{g.content}</span> <span className="hint">{g.flows.length} connection{g.flows.length === 1 ? '' : 's'}</span>
              </summary>
              {g.items.map((item) => (
                <div key={item.key} className="conn-item">
                  <span className="item-name">
                    item <code>{item.item}</code>
                  </span>
                  {groupActions(`item ${item.item}`, item.flows)}
                  <ul className="conn-list">{item.flows.map(chip)}</ul>
                </div>
              ))}
            </details>
            {groupActions(`${g.content} connections`, g.flows)}
          </li>
        ))}
      </ul>
    </section>
  );
}
