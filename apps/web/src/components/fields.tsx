/**
 * The form fields every form uses, each a react-aria field with its visible label and an optional
 * description (announced with the field). Forms read them by `name` through FormData, or control
 * them through `value` and `onChange`.
 */
import type { ReactNode } from 'react';
import {
  Button,
  Checkbox,
  CheckboxGroup,
  Input,
  Label,
  Radio,
  RadioButton,
  RadioField,
  RadioGroup,
  Text,
  TextArea,
  TextField,
} from 'react-aria-components';
import { ErrorNotice } from './ErrorNotice';

interface TextInputProps {
  name?: string;
  label: string;
  description?: ReactNode;
  isRequired?: boolean;
  type?: 'text' | 'email' | 'password' | 'url' | 'number';
  defaultValue?: string;
  value?: string;
  onChange?: (value: string) => void;
  validate?: (value: string) => string | null;
  maxLength?: number;
  minLength?: number;
  /** 'off' unless told: these forms name things, they do not fill in addresses. */
  autoComplete?: string;
  spellCheck?: boolean;
  autoFocus?: boolean;
  min?: number;
  max?: number;
  step?: number;
  inputMode?: 'numeric';
}

/** A one-line text field. */
export function TextInput({
  label,
  description,
  autoComplete,
  spellCheck,
  autoFocus,
  min,
  max,
  step,
  inputMode,
  ...field
}: TextInputProps) {
  return (
    <TextField {...field}>
      <Label>{label}</Label>
      <Input
        autoComplete={autoComplete ?? 'off'}
        spellCheck={spellCheck}
        autoFocus={autoFocus}
        min={min}
        max={max}
        step={step}
        inputMode={inputMode}
      />
      {description ? <Text slot="description">{description}</Text> : null}
    </TextField>
  );
}

/** A whole number typed as text (the form reads it with Number()). */
export function NumberInput(props: Omit<TextInputProps, 'type' | 'inputMode'>) {
  return <TextInput type="number" inputMode="numeric" step={1} {...props} />;
}

/** A text of several lines (a license, a certificate), taken as typed. */
export function TextAreaInput({
  name,
  label,
  description,
  rows,
  isRequired,
  defaultValue,
}: {
  name: string;
  label: string;
  description?: ReactNode;
  rows: number;
  isRequired?: boolean;
  defaultValue?: string;
}) {
  return (
    <TextField name={name} isRequired={isRequired} defaultValue={defaultValue}>
      <Label>{label}</Label>
      <TextArea rows={rows} spellCheck={false} />
      {description ? <Text slot="description">{description}</Text> : null}
    </TextField>
  );
}

/** A switch the form reads as `true` when ticked (absent otherwise). */
export function CheckboxField({
  name,
  label,
  defaultSelected,
}: {
  name: string;
  label: ReactNode;
  defaultSelected?: boolean;
}) {
  return (
    <Checkbox name={name} value="true" defaultSelected={defaultSelected}>
      {label}
    </Checkbox>
  );
}

/** The text of an empty write-only field: the stored value stays; read it with {@link secretOf}. */
const KEPT = 'A value is stored (encrypted); leave empty to keep it.';

/**
 * A write-only secret (a password, a client secret): never shown. When a value is stored, an empty
 * field keeps it (so it is not required then); `hint` comes before "Stored encrypted" otherwise.
 */
export function SecretField({
  name,
  label,
  stored,
  isRequired,
  hint,
}: {
  name: string;
  label: string;
  stored: boolean;
  isRequired?: boolean;
  hint?: string;
}) {
  return (
    <TextField name={name} type="password" isRequired={isRequired && !stored}>
      <Label>{label}</Label>
      <Input autoComplete="new-password" />
      <Text slot="description">{stored ? KEPT : `${hint ? `${hint} ` : ''}Stored encrypted; never shown again.`}</Text>
    </TextField>
  );
}

/** A secret field's value, or nothing when left empty (the stored value is then kept). */
export function secretOf(form: FormData, name: string): string | undefined {
  const value = String(form.get(name) ?? '');
  return value === '' ? undefined : value;
}

export interface Choice<T extends string> {
  value: T;
  label: string;
  description?: string;
}

/** Choices whose labels are their values ('view', 'table', ...). */
export const plainChoices = <T extends string>(...values: T[]): Array<Choice<T>> =>
  values.map((value) => ({ value, label: value }));

/**
 * One of a few choices as radio buttons, controlled (`value`, `onChange`) or read by `name`. A choice
 * with a description says what it does under its button.
 */
export function ChoiceField<T extends string>(props: {
  label: string;
  choices: Array<Choice<T>>;
  value?: T;
  onChange?: (value: T) => void;
  name?: string;
  defaultValue?: T;
  orientation?: 'horizontal';
  /** Said of all the choices: above them, or (`noteBelow`) under them. */
  note?: ReactNode;
  noteBelow?: boolean;
}) {
  const described = props.choices.some((choice) => choice.description);
  const note = props.note ? <Text slot="description">{props.note}</Text> : null;
  return (
    <RadioGroup
      name={props.name}
      defaultValue={props.defaultValue}
      value={props.value}
      onChange={(next) => props.onChange?.(next as T)}
      orientation={props.orientation}
    >
      <Label>{props.label}</Label>
      {props.noteBelow ? null : note}
      {props.choices.map((choice) =>
        described ? (
          <RadioField key={choice.value} value={choice.value}>
            <RadioButton className="react-aria-Radio">{choice.label}</RadioButton>
            {choice.description ? <Text slot="description">{choice.description}</Text> : null}
          </RadioField>
        ) : (
          <Radio key={choice.value} value={choice.value}>
            {choice.label}
          </Radio>
        ),
      )}
      {props.noteBelow ? note : null}
    </RadioGroup>
  );
}

/**
 * The end of a form: why the last submission failed (the API's error, or `invalid`: what the form
 * itself refused), then the submit button, and Cancel beside it when editing.
 */
export function FormSubmit({
  label,
  error,
  invalid,
  isDisabled,
  onCancel,
}: {
  label: string;
  error?: unknown;
  invalid?: string;
  isDisabled?: boolean;
  onCancel?: () => void;
}) {
  const submit = (
    <Button type="submit" isDisabled={isDisabled}>
      {label}
    </Button>
  );
  return (
    <>
      <ErrorNotice error={error} />
      {invalid ? (
        <p role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      {onCancel ? (
        <div className="row">
          {submit}
          <Button className="secondary" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      ) : (
        submit
      )}
    </>
  );
}

/** Several of a list ticked (capabilities, tables, upstream pipelines): the ids of the ticked items. */
export function CheckboxList({
  label,
  description,
  items,
  value,
  onChange,
  isRequired,
}: {
  label: string;
  description?: ReactNode;
  items: Array<{ id: string; name: string }>;
  value: string[];
  onChange: (ids: string[]) => void;
  isRequired?: boolean;
}) {
  return (
    <CheckboxGroup value={value} onChange={onChange} isRequired={isRequired}>
      <Label>{label}</Label>
      {description ? <Text slot="description">{description}</Text> : null}
      {items.map((item) => (
        <Checkbox key={item.id} value={item.id}>
          {item.name}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}
