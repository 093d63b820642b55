// One field of the scenario form: the schema node resolved, and the component of its kind.
import { controlOf, resolve } from '../../data/schemaForm';
import { ArrayField } from './ArrayField';
import { BooleanField } from './BooleanField';
import { ChoiceField } from './ChoiceField';
import { errorAt, fieldLabel, idOf, type FieldProps } from './common';
import { EnumField } from './EnumField';
import { MapField } from './MapField';
import { NumberField } from './NumberField';
import { ObjectField } from './ObjectField';
import { StringField } from './StringField';

export function Field(props: FieldProps) {
  const node = resolve(props.root, props.node);
  const control = controlOf(props.root, node);
  const kind = {
    ...props,
    node,
    id: idOf(props.tokens),
    label: fieldLabel(node, props.name, props.depth, control.kind === 'choice'),
    unit: node['x-unit'],
    help: node.description,
    serverError: errorAt(props.error, props.tokens),
  };
  switch (control.kind) {
    case 'const':
      return null;
    case 'object':
      return <ObjectField {...kind} control={control} />;
    case 'choice':
      return <ChoiceField {...kind} control={control} />;
    case 'enum':
      return <EnumField {...kind} control={control} />;
    case 'number':
      return <NumberField {...kind} control={control} />;
    case 'boolean':
      return <BooleanField {...kind} />;
    case 'string':
      return <StringField {...kind} />;
    case 'array':
      return <ArrayField {...kind} control={control} />;
    case 'map':
      return <MapField {...kind} control={control} />;
  }
}
