// One of the schema's listed values, or its default.
import { toPointer } from '@tcb-lab/sim';
import type { Control } from '../../data/schemaForm';
import { ErrorText, invalidProps, type KindProps } from './common';

export function EnumField({ node, tokens, value, onChange, id, label, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'enum' }> }) {
  return (
    <div className="field" data-pointer={toPointer(tokens)}>
      <label htmlFor={id} title={help}>
        {label}
      </label>
      <select
        id={id}
        value={value === undefined ? '' : String(value)}
        {...invalidProps(id, serverError)}
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
}
