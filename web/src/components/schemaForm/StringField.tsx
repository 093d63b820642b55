// Text; emptied, a field with a default goes back to it.
import { toPointer } from '@tcb-lab/sim';
import { ErrorText, invalidProps, type KindProps } from './common';

export function StringField({ node, tokens, value, onChange, id, label, help, serverError }: KindProps) {
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
        {...invalidProps(id, serverError)}
        onChange={(e) => onChange(e.target.value === '' && node.default !== undefined ? undefined : e.target.value)}
      />
      <ErrorText id={`${id}-err`} text={serverError} />
    </div>
  );
}
