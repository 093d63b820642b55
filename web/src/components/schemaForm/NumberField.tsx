// A number with its unit: the text as typed is kept while it is being edited, the schema's bounds
// are checked at once, and the default shows as a placeholder.
import { toPointer } from '@tcb-lab/sim';
import { useEffect, useState } from 'react';
import { parseNumberInput, type Control, type SchemaNode } from '../../data/schemaForm';
import { ErrorText, type KindProps } from './common';

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

export function NumberField({ node, tokens, value, onChange, id, label, unit, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'number' }> }) {
  const message = serverError ?? numberProblem(node, control.integer, value);
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
