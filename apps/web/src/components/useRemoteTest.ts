import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * A row's Test button (a channel, a destination): calls `test` for an id and keeps, per id, the line
 * `describe` makes of the answer, for the row to show.
 */
export function useRemoteTest<T>(test: (id: string) => Promise<T>, describe: (answer: T) => string) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: test,
    onSuccess: (answer, id) => setAnswers((all) => ({ ...all, [id]: describe(answer) })),
  });
  return {
    answers,
    error: mutation.error,
    run: (id: string) => mutation.mutate(id),
    busy: (id: string) => mutation.isPending && mutation.variables === id,
  };
}
