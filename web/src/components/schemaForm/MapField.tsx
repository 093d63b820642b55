// An object keyed by name (per-host settings): an entry per key with Remove, and a new key to add.
import { toPointer } from '@tcb-lab/sim';
import { useState } from 'react';
import { initialValue, type Control } from '../../data/schemaForm';
import { ErrorText, type KindProps } from './common';
import { Field } from './Field';

function AddKey({ label, onAdd, existing }: { label: string; onAdd: (key: string) => void; existing: string[] }) {
  const [key, setKey] = useState('');
  const id = `add-${label.replace(/\W/g, '')}`;
  return (
    <div className="field">
      <label htmlFor={id}>new {label} entry</label>
      <input id={id} type="text" value={key} placeholder='node name or "*"' onChange={(e) => setKey(e.target.value)} />
      <button
        type="button"
        disabled={!key || existing.includes(key)}
        onClick={() => {
          onAdd(key);
          setKey('');
        }}
      >
        Add
      </button>
    </div>
  );
}

export function MapField({ root, tokens, value, onChange, error, depth, id, label, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'map' }> }) {
  const obj = (value ?? {}) as Record<string, unknown>;
  return (
    <fieldset className="list" data-pointer={toPointer(tokens)}>
      <legend title={help}>{label}</legend>
      <ErrorText id={`${id}-err`} text={serverError} />
      {Object.entries(obj).map(([key, v]) => (
        <div key={key} className="list-item">
          <div className="list-item-head">
            <span>{key}</span>
            <button
              type="button"
              aria-label={`Remove ${key}`}
              onClick={() => {
                const next = { ...obj };
                delete next[key];
                onChange(next);
              }}
            >
              Remove
            </button>
          </div>
          <Field root={root} node={control.values} name={key} tokens={[...tokens, key]} value={v} error={error} depth={depth + 1} onChange={(nv) => onChange({ ...obj, [key]: nv })} />
        </div>
      ))}
      <AddKey label={label} onAdd={(key) => onChange({ ...obj, [key]: initialValue(root, control.values) })} existing={Object.keys(obj)} />
    </fieldset>
  );
}
