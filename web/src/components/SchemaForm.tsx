// The scenario form, generated from scenario.schema.json: one control per field, with the schema's
// units, defaults (as placeholders) and descriptions; oneOf as a choice of its branches. Errors show
// at the field: the schema's bounds at once, and the simulator's validation (path + problem) at the
// field its path names.
import { useEffect, useState } from 'react';
import {
  branchLabel, controlOf, discriminator, initialValue, labelOf, matchBranch, parseNumberInput, resolve, type SchemaNode,
} from '../data/schemaForm';
import { toPointer } from '@tcb-lab/sim';

export interface FieldError {
  pointer: string;
  problem: string;
}

interface FieldProps {
  root: SchemaNode;
  node: SchemaNode;
  name: string;
  tokens: (string | number)[];
  value: unknown;
  onChange: (value: unknown) => void;
  error: FieldError | null;
  depth: number;
  /** Hide this property (the discriminator shown by the parent's choice). */
  hide?: string;
}

const idOf = (tokens: (string | number)[]) => 'f' + toPointer(tokens).replace(/[^A-Za-z0-9_-]/g, '_');

function ErrorText({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p className="field-error" id={id} role="alert" data-field-error="">
      {text}
    </p>
  );
}

function errorAt(error: FieldError | null, tokens: (string | number)[]): string | null {
  return error && error.pointer === toPointer(tokens) ? error.problem : null;
}

/** The schema's bounds for a number, checked as the user types. */
export function numberProblem(node: SchemaNode, integer: boolean, v: unknown): string | null {
  if (v === undefined) return null;
  if (typeof v !== 'number') return 'must be a number';
  if (integer && !Number.isInteger(v)) return 'must be an integer';
  if (node.minimum !== undefined && v < node.minimum) return `must be at least ${node.minimum}`;
  if (node.exclusiveMinimum !== undefined && v <= node.exclusiveMinimum) return `must be greater than ${node.exclusiveMinimum}`;
  if (node.maximum !== undefined && v > node.maximum) return `must be at most ${node.maximum}`;
  return null;
}

function NumberInput(props: { id: string; node: SchemaNode; integer: boolean; value: unknown; onChange: (v: unknown) => void; describedBy?: string; invalid: boolean }) {
  const { id, node, integer, value, onChange } = props;
  const shown = value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  useEffect(() => {
    if (parseNumberInput(text) !== value) setText(shown);
    // Only external changes of the value reset the text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <input
      id={id}
      type="text"
      inputMode={integer ? 'numeric' : 'decimal'}
      value={text}
      placeholder={node.default !== undefined ? String(node.default) : undefined}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseNumberInput(e.target.value));
      }}
    />
  );
}

function Field(props: FieldProps) {
  const { root, name, tokens, value, onChange, error, depth } = props;
  const node = resolve(root, props.node);
  const control = controlOf(root, node);
  const id = idOf(tokens);
  const label = node.title && depth > 0 && control.kind !== 'choice' ? node.title : labelOf(name);
  const unit = node['x-unit'];
  const help = node.description;
  const serverError = errorAt(error, tokens);

  switch (control.kind) {
    case 'const':
      return null;
    case 'object': {
      const obj = (value ?? {}) as Record<string, unknown>;
      const children = control.properties
        .filter(([key]) => key !== props.hide)
        .map(([key, child]) => (
          <Field
            key={key}
            root={root}
            node={child}
            name={key}
            tokens={[...tokens, key]}
            value={obj[key]}
            error={error}
            depth={depth + 1}
            onChange={(v) => {
              const next = { ...obj };
              if (v === undefined) delete next[key];
              else next[key] = v;
              onChange(next);
            }}
          />
        ));
      if (depth === 0) return <>{children}</>;
      return (
        <details className="group" open={depth <= 2} data-pointer={toPointer(tokens)}>
          <summary title={help}>{label}</summary>
          <ErrorText id={`${id}-err`} text={serverError} />
          {children}
        </details>
      );
    }
    case 'choice': {
      const disc = discriminator(control.branches);
      const current = value === undefined ? node.default : value;
      const index = matchBranch(control.branches, current);
      const branch = index >= 0 ? control.branches[index] : undefined;
      const branchControl = branch ? controlOf(root, branch) : undefined;
      return (
        <div className="field choice" data-pointer={toPointer(tokens)}>
          <label htmlFor={id} title={help}>
            {labelOf(name)}
          </label>
          <select
            id={id}
            value={index}
            aria-invalid={!!serverError || undefined}
            aria-describedby={serverError ? `${id}-err` : undefined}
            onChange={(e) => {
              const i = Number(e.target.value);
              onChange(i < 0 ? undefined : initialValue(root, control.branches[i]));
            }}
          >
            {index < 0 && <option value={-1}>{current === undefined ? '— (not set)' : '(other: edit as JSON)'}</option>}
            {control.branches.map((b, i) => (
              <option key={i} value={i}>
                {branchLabel(b, disc)}
              </option>
            ))}
          </select>
          {value === undefined && node.default !== undefined && <span className="hint">default</span>}
          <ErrorText id={`${id}-err`} text={serverError} />
          {branch && branchControl && branchControl.kind !== 'const' && (
            <div className="branch">
              {branch.description && <p className="hint">{branch.description}</p>}
              <Field root={root} node={branch} name={branchControl.kind === 'object' ? name : 'value'} tokens={tokens} value={current} onChange={onChange} error={branchControl.kind === 'object' ? error : null} depth={branchControl.kind === 'object' ? 0 : depth + 1} hide={disc} />
            </div>
          )}
        </div>
      );
    }
    case 'enum':
      return (
        <div className="field" data-pointer={toPointer(tokens)}>
          <label htmlFor={id} title={help}>
            {label}
          </label>
          <select
            id={id}
            value={value === undefined ? '' : String(value)}
            aria-invalid={!!serverError || undefined}
            aria-describedby={serverError ? `${id}-err` : undefined}
            onChange={(e) => onChange(e.target.value === '' ? undefined : control.options.find((o) => String(o) === e.target.value))}
          >
            <option value="">{node.default !== undefined ? `default (${String(node.default)})` : '—'}</option>
            {control.options.map((o) => (
              <option key={String(o)} value={String(o)}>
                {String(o)}
              </option>
            ))}
          </select>
          <ErrorText id={`${id}-err`} text={serverError} />
        </div>
      );
    case 'number': {
      const local = numberProblem(node, control.integer, value);
      const message = serverError ?? local;
      return (
        <div className="field" data-pointer={toPointer(tokens)}>
          <label htmlFor={id} title={help}>
            {label}
          </label>
          <NumberInput id={id} node={node} integer={control.integer} value={value} onChange={onChange} invalid={!!message} describedBy={message ? `${id}-err` : undefined} />
          {unit && <span className="unit">{unit}</span>}
          <ErrorText id={`${id}-err`} text={message} />
        </div>
      );
    }
    case 'boolean': {
      const checked = (value ?? node.default ?? false) as boolean;
      return (
        <div className="field checkbox" data-pointer={toPointer(tokens)}>
          <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id} title={help}>
            {label}
          </label>
          <ErrorText id={`${id}-err`} text={serverError} />
        </div>
      );
    }
    case 'string':
      return (
        <div className="field" data-pointer={toPointer(tokens)}>
          <label htmlFor={id} title={help}>
            {label}
          </label>
          <input
            id={id}
            type="text"
            value={value === undefined ? '' : String(value)}
            placeholder={typeof node.default === 'string' ? node.default : undefined}
            aria-invalid={!!serverError || undefined}
            aria-describedby={serverError ? `${id}-err` : undefined}
            onChange={(e) => onChange(e.target.value === '' && node.default !== undefined ? undefined : e.target.value)}
          />
          <ErrorText id={`${id}-err`} text={serverError} />
        </div>
      );
    case 'array': {
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
    case 'map': {
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
  }
}

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

export function SchemaForm({ root, value, onChange, error }: { root: SchemaNode; value: unknown; onChange: (v: unknown) => void; error: FieldError | null }) {
  return (
    <div className="schema-form">
      {error && error.pointer === '' && (
        <p className="field-error" role="alert" data-field-error="">
          {error.problem}
        </p>
      )}
      <Field root={root} node={root} name="scenario" tokens={[]} value={value} onChange={onChange} error={error} depth={0} />
    </div>
  );
}
