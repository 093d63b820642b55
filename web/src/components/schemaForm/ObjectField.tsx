// An object: its properties as fields, folded in a section below the top level.
import { toPointer } from '@tcb-lab/sim';
import type { Control } from '../../data/schemaForm';
import { ErrorText, type KindProps } from './common';
import { Field } from './Field';

export function ObjectField({ root, tokens, value, onChange, error, depth, hide, id, label, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'object' }> }) {
  const obj = (value ?? {}) as Record<string, unknown>;
  const children = control.properties
    .filter(([key]) => key !== hide)
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
