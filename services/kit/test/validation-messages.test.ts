import { validationMessage } from '../src/http/validation-messages';

/** A schema's own wording: a predicate after the field name, a {field} template, or a whole sentence. */
const issue = (schema: Record<string, unknown>) => ({
  instancePath: '/email',
  keyword: 'pattern',
  params: {},
  parentSchema: schema,
});

it.each([
  ['must be an e-mail address', 'email must be an e-mail address'],
  ['Invalid {field}', 'Invalid email'],
  ['Please provide a valid email address', 'Please provide a valid email address'],
])('x-message %p reads %p', (wording, expected) => {
  expect(validationMessage([issue({ type: 'string', 'x-message': wording })], 'body')).toBe(expected);
});
