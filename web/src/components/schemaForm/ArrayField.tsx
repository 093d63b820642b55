// A list: numbers or strings as one comma-separated input; objects as a list of fields with Add
// and Remove.
import { toPointer } from '@tcb-lab/sim';
import { useEffect, useState } from 'react';
import { initialValue, parseNumberInput, type Control } from '../../data/schemaForm';
import { ErrorText, type KindProps } from './common';
import { Field } from './Field';

function ScalarList({ id, items, numeric, onChange, invalid }: { id: string; items: unknown[]; numeric: boolean; onChange: (v: unknown) => void; invalid: boolean }) {
  const joined = items.join(', ');
  const [text, setText] = useState(joined);
  useEffect(() => setText(joined), [joined]);
  return (
    <input
      id={id}
      type="text"
      value={text}
      aria-invalid={invalid || undefined}
      placeholder="comma-separated"
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
        const next = numeric ? parts.map((s) => parseNumberInput(s)) : parts;
        // Leaving the field unchanged changes nothing: an absent list stays absent (writing [] would
        // make the scenario another text, and the explorer would check and run it again).
        if (next.length === items.length && next.every((v, i) => v === items[i])) return;
        onChange(next);
      }}
    />
  );
}

export function ArrayField({ root, name, tokens, value, onChange, error, depth, id, label, unit, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'array' }> }) {
  const items = Array.isArray(value) ? value : [];
  if (control.scalar) {
    const numeric = ['number', 'integer'].includes(String(control.items.type));
    return (
      <div className="field" data-pointer={toPointer(tokens)}>
        <label htmlFor={id} title={help}>
          {label}
        </label>
        <ScalarList id={id} items={items} numeric={numeric} onChange={onChange} invalid={!!serverError} />
        {unit && <span className="unit">{unit}</span>}
        <ErrorText id={`${id}-err`} text={serverError} />
      </div>
    );
  }
  return (
    <fieldset className="list" data-pointer={toPointer(tokens)}>
      <legend title={help}>{label}</legend>
      <ErrorText id={`${id}-err`} text={serverError} />
      {items.map((item, i) => (
        <div key={i} className="list-item">
          <div className="list-item-head">
            <span>
              {label} {i + 1}
            </span>
            <button type="button" aria-label={`Remove ${label} ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
          <Field
            root={root}
            node={control.items}
            name={`${name}[${i}]`}
            tokens={[...tokens, i]}
            value={item}
            error={error}
            depth={depth + 1}
            onChange={(v) => onChange(items.map((old, j) => (j === i ? v : old)))}
          />
        </div>
      ))}
      <button type="button" onClick={() => onChange([...items, initialValue(root, control.items)])}>
        Add {label}
      </button>
    </fieldset>
  );
}
