import { useState } from 'react';
import { Button, Checkbox } from 'react-aria-components';
import { ChoiceField, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { STEP_FIELDS, STEP_TYPES, newDraft, withValue, type StepDraft, type StepType } from './pipeline-steps';

/** The steps of a pipeline, in order: one group of fields per step, moved up, removed or added at the end. */
export function StepsEditor({ steps, onChange }: { steps: StepDraft[]; onChange: (steps: StepDraft[]) => void }) {
  const [adding, setAdding] = useState<StepType>('filter');
  const update = (index: number, name: string, value: string | boolean) =>
    onChange(steps.map((step, i) => (i === index ? withValue(step, name, value) : step)));
  const move = (index: number) =>
    onChange(steps.map((step, i) => (i === index - 1 ? steps[index]! : i === index ? steps[index - 1]! : step)));
  return (
    <div className="steps">
      {steps.length === 0 ? <p className="empty">No steps: rows are copied as they are.</p> : null}
      {steps.map((step, index) => (
        <fieldset key={step.key}>
          <legend>
            Step {index + 1}: {step.type}
          </legend>
          {STEP_FIELDS[step.type].map((field) => {
            const value = step.values[field.name];
            if (field.shape === 'flag') {
              return (
                <Checkbox key={field.name} isSelected={value === true} onChange={(on) => update(index, field.name, on)}>
                  {field.label}
                </Checkbox>
              );
            }
            if (field.shape === 'choice') {
              return (
                <ChoiceField
                  key={field.name}
                  label={field.label}
                  value={String(value)}
                  onChange={(next) => update(index, field.name, next)}
                  orientation="horizontal"
                  choices={field.options!.map((option) => ({ value: option, label: option }))}
                />
              );
            }
            return (
              <TextInput
                key={field.name}
                label={field.label}
                value={String(value ?? '')}
                onChange={(next) => update(index, field.name, next)}
                isRequired={!field.optional}
                description={field.help}
              />
            );
          })}
          <div className="row">
            {index > 0 ? (
              <Button className="secondary" onPress={() => move(index)}>
                Move step {index + 1} up
              </Button>
            ) : null}
            <Button className="secondary" onPress={() => onChange(steps.filter((_, i) => i !== index))}>
              Remove step {index + 1}
            </Button>
          </div>
        </fieldset>
      ))}
      <div className="row end">
        <ItemSelect
          label="New step"
          isRequired={false}
          items={STEP_TYPES.map((type) => ({ id: type, name: type }))}
          value={adding}
          onChange={(type) => setAdding(type as StepType)}
        />
        <Button className="secondary" onPress={() => onChange([...steps, newDraft(adding)])}>
          Add step
        </Button>
      </div>
    </div>
  );
}
