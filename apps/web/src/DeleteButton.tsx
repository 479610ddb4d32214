import { useState } from 'react';
import { Button } from 'react-aria-components';

/**
 * A delete button that asks first, in place: "Delete <name>" turns into a small group with
 * "Delete for good" and "Keep". Deletions here cannot be undone (a CDC table's slot, a connector's secrets).
 */
export function DeleteButton({ name, label, onConfirm, isPending }: { name: string; label?: string; onConfirm: () => void; isPending?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button className="secondary" aria-label={label ?? `Delete ${name}`} onPress={() => setAsking(true)}>
        Delete
      </Button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm deleting ${name}`} className="row">
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
      <Button className="secondary" onPress={() => setAsking(false)} autoFocus>
        Keep
      </Button>
    </span>
  );
}
