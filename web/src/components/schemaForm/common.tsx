// What every field of the scenario form shares: its props, its id, its label, and the error shown
// under it (the schema's bounds at once, the simulator's validation at the field its path names).
import { toPointer } from '@tcb-lab/sim';
import { labelOf, type SchemaNode } from '../../data/schemaForm';

export interface FieldError {
  pointer: string;
  problem: string;
}

export interface FieldProps {
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

/** A field as each kind's component receives it: its schema node resolved, its id, label, help and error. */
export interface KindProps extends FieldProps {
  id: string;
  label: string;
  unit?: string;
  help?: string;
  serverError: string | null;
}

export const idOf = (tokens: (string | number)[]) => 'f' + toPointer(tokens).replace(/[^A-Za-z0-9_-]/g, '_');

export function ErrorText({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p className="field-error" id={id} role="alert" data-field-error="">
      {text}
    </p>
  );
}

export function errorAt(error: FieldError | null, tokens: (string | number)[]): string | null {
  return error && error.pointer === toPointer(tokens) ? error.problem : null;
}

/** A field's label: the schema's title below the top level (not for a choice), else its key in words. */
export function fieldLabel(node: SchemaNode, name: string, depth: number, isChoice: boolean): string {
  return node.title && depth > 0 && !isChoice ? node.title : labelOf(name);
}

/** The attributes that tie a control to its error. */
export const invalidProps = (id: string, error: string | null) => ({
  'aria-invalid': !!error || undefined,
  'aria-describedby': error ? `${id}-err` : undefined,
});
