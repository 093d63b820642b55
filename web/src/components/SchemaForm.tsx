// The scenario form, generated from scenario.schema.json: one control per field, with the schema's
// units, defaults (as placeholders) and descriptions; oneOf as a choice of its branches. Errors show
// at the field: the schema's bounds at once, and the simulator's validation (path + problem) at the
// field its path names. One component per kind of schema node, in schemaForm/.
import type { SchemaNode } from '../data/schemaForm';
import type { FieldError } from './schemaForm/common';
import { Field } from './schemaForm/Field';

export type { FieldError } from './schemaForm/common';

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
