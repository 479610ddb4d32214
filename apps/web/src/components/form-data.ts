import type { FormEvent } from 'react';

/** What a submitted form holds, read by field name. */
export interface SubmittedForm {
  form: FormData;
  /** The field's text, trimmed ('' when the field is absent). */
  text: (name: string) => string;
}

/** A form's submit handler: the browser's own submit is prevented and `handle` reads the fields. */
export const onSubmitted =
  (handle: (submitted: SubmittedForm) => void) =>
  (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    handle({ form, text: (name) => String(form.get(name) ?? '').trim() });
  };
