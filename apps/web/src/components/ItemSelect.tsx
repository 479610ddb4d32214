import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text } from 'react-aria-components';

/**
 * A select of named items (projects, connectors, users, roles, pipelines) by id: labelled by a
 * visible label or, in a table row, by `ariaLabel`; required when it has a visible label, unless
 * told otherwise (a filter, which always has a choice).
 */
export function ItemSelect(props: {
  label?: string;
  ariaLabel?: string;
  items: Array<{ id: string; name: string }>;
  value: string | null | undefined;
  onChange: (id: string) => void;
  isDisabled?: boolean;
  description?: string;
  empty?: string;
  isRequired?: boolean;
}) {
  return (
    <Select
      aria-label={props.ariaLabel}
      selectedKey={props.value ?? null}
      onSelectionChange={(key) => {
        if (key !== null) props.onChange(String(key));
      }}
      isRequired={props.isRequired ?? !!props.label}
      isDisabled={props.isDisabled}
    >
      {props.label ? <Label>{props.label}</Label> : null}
      <Button>
        <SelectValue />
      </Button>
      {props.description ? <Text slot="description">{props.description}</Text> : null}
      <Popover>
        <ListBox items={props.items} renderEmptyState={props.empty ? () => props.empty : undefined}>
          {(item) => <ListBoxItem id={item.id}>{item.name}</ListBoxItem>}
        </ListBox>
      </Popover>
    </Select>
  );
}
