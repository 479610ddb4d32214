import { Button } from 'react-aria-components';
import { DeleteButton } from './DeleteButton';

/** A row's Test and Delete buttons (a notification channel, an audit destination). */
export function TestAndDelete(props: {
  name: string;
  /** What is deleted, in the confirmation ("the channel ops"). */
  what: string;
  onTest: () => void;
  testing: boolean;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <>
      <Button className="secondary" aria-label={`Test ${props.name}`} onPress={props.onTest} isDisabled={props.testing}>
        Test
      </Button>
      <DeleteButton
        name={props.what}
        label={`Delete ${props.name}`}
        onConfirm={props.onDelete}
        isPending={props.deleting}
      />
    </>
  );
}
