import { TextInput } from '../../components/fields';

/** The name (required) and description of a new project or role; the form sends the description only when typed. */
export function NameAndDescription() {
  return (
    <>
      <TextInput name="name" label="Name" isRequired />
      <TextInput name="description" label="Description" />
    </>
  );
}

/** The name and, when typed, the description, as the API takes them. */
export function nameAndDescriptionOf(form: FormData): { name: string; description?: string } {
  const description = String(form.get('description') ?? '').trim();
  return { name: String(form.get('name')), ...(description ? { description } : {}) };
}
