// A checkbox, checked as the schema's default until set.
import { toPointer } from '@tcb-lab/sim';
import { ErrorText, type KindProps } from './common';

export function BooleanField({ node, tokens, value, onChange, id, label, help, serverError }: KindProps) {
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
