import { FormAlert } from '@/components/ui/form-field';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';

/**
 * A failed request's message above its form, unless the server tied it to a field that shows it
 * below (one message per problem). `fields` names the fields that show the server's messages;
 * without it, any field the server names keeps the message below.
 */
export function RequestAlert({ error, fields }: { error: unknown; fields?: readonly string[] }) {
  if (!error) return null;
  const server = fieldErrors(error);
  const shownBelow = (fields ?? Object.keys(server)).some((field) => server[field]);
  return shownBelow ? null : <FormAlert>{errorMessage(error)}</FormAlert>;
}
