import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';

/** A delete mutation that takes the id of what it deletes. */
export interface DeleteMutation {
  mutate: (id: string) => void;
  isPending: boolean;
  variables?: string;
}

/**
 * A delete button that asks first, in place: "Delete <name>" turns into a small group with
 * "Delete for good" and "Keep" (focused: the safe choice), and back, with the focus, when kept.
 * Deletions here cannot be undone (a CDC table's slot, a connector's secrets). With `deletes`, the
 * confirmation runs that mutation for `id`, and the button waits while it deletes that id.
 */
export function DeleteButton({
  name,
  label,
  warning,
  deletes,
  id,
  ...props
}: {
  name: string;
  label?: string;
  warning?: string;
  onConfirm?: () => void;
  isPending?: boolean;
  deletes?: DeleteMutation;
  id?: string;
}) {
  const onConfirm = props.onConfirm ?? (() => deletes?.mutate(id!));
  const isPending = props.isPending ?? (!!deletes?.isPending && deletes.variables === id);
  const [asking, setAsking] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  useEffect(() => {
    if (asking || !kept.current) return;
    kept.current = false;
    deleteButton.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <Button
        ref={deleteButton}
        className="secondary"
        aria-label={label ?? `Delete ${name}`}
        onPress={() => setAsking(true)}
        isDisabled={isPending}
      >
        Delete
      </Button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm deleting ${name}`} className="row">
      {warning ? <span className="muted">{warning}</span> : null}
      <Button
        className="danger"
        isDisabled={isPending}
        onPress={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Delete for good
      </Button>
      <Button
        className="secondary"
        autoFocus
        onPress={() => {
          kept.current = true;
          setAsking(false);
        }}
      >
        Keep
      </Button>
    </span>
  );
}
