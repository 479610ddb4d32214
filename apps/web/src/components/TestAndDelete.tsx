import { Button } from 'react-aria-components';
import { DeleteButton, type DeleteMutation } from './DeleteButton';

/** A row's Test and Delete buttons (a notification channel, an audit destination), for the row's `id`. */
export function TestAndDelete(props: {
  name: string;
  /** What is deleted, in the confirmation ("the channel ops"). */
  what: string;
  id: string;
  /** The remote test (useRemoteTest): run for an id, busy while that id is tested. */
  test: { run: (id: string) => void; busy: (id: string) => boolean };
  deletes: DeleteMutation;
}) {
  return (
    <>
      <Button
        className="secondary"
        aria-label={`Test ${props.name}`}
        onPress={() => props.test.run(props.id)}
        isDisabled={props.test.busy(props.id)}
      >
        Test
      </Button>
      <DeleteButton name={props.what} label={`Delete ${props.name}`} deletes={props.deletes} id={props.id} />
    </>
  );
}
