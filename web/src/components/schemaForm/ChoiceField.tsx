// A oneOf: a select of its branches, and the chosen branch's own fields under it (its
// discriminator, shown by the select, hidden).
import { toPointer } from '@tcb-lab/sim';
import { branchLabel, controlOf, discriminator, initialValue, labelOf, matchBranch, type Control } from '../../data/schemaForm';
import { ErrorText, invalidProps, type KindProps } from './common';
import { Field } from './Field';

export function ChoiceField({ root, node, name, tokens, value, onChange, error, depth, id, help, serverError, control }: KindProps & { control: Extract<Control, { kind: 'choice' }> }) {
  const disc = discriminator(control.branches);
  const current = value === undefined ? node.default : value;
  const index = matchBranch(control.branches, current);
  const branch = index >= 0 ? control.branches[index] : undefined;
  const branchControl = branch ? controlOf(root, branch) : undefined;
  const isObject = branchControl?.kind === 'object';
  return (
    <div className="field choice" data-pointer={toPointer(tokens)}>
      <label htmlFor={id} title={help}>
        {labelOf(name)}
      </label>
      <select
        id={id}
        value={index}
        {...invalidProps(id, serverError)}
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
          <Field root={root} node={branch} name={isObject ? name : 'value'} tokens={tokens} value={current} onChange={onChange} error={isObject ? error : null} depth={isObject ? 0 : depth + 1} hide={disc} />
        </div>
      )}
    </div>
  );
}
