import { ChoiceField } from '../../components/fields';

export type WriteModeValue = 'append' | 'overwrite' | 'upsert';

/** How a run writes into its destination table: appended, overwritten, or upserted on key columns. */
export function WriteMode({
  value,
  onChange,
  order,
  note,
}: {
  value: WriteModeValue;
  onChange: (mode: WriteModeValue) => void;
  order: WriteModeValue[];
  note?: string;
}) {
  return (
    <ChoiceField
      label="Write mode"
      value={value}
      onChange={onChange}
      orientation="horizontal"
      choices={order.map((mode) => ({ value: mode, label: mode }))}
      note={note}
      noteBelow
    />
  );
}
