import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';
import type { DeleteMutation } from './DeleteButton';

/** A row's secondary button that runs `mutation` for the row's `id`; disabled while the mutation runs. */
export function RowButton({
  label,
  mutation,
  id,
  children,
}: {
  /** The accessible name, naming the row ("Reload orders.csv"). */
  label: string;
  mutation: Pick<DeleteMutation, 'mutate' | 'isPending'>;
  id: string;
  children: ReactNode;
}) {
  return (
    <Button
      className="secondary"
      aria-label={label}
      onPress={() => mutation.mutate(id)}
      isDisabled={mutation.isPending}
    >
      {children}
    </Button>
  );
}
