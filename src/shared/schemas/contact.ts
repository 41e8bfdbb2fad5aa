import { z } from 'zod';
import { CONTACT_SUBJECTS } from '../constants';
import { personName } from '../names';
import { emailField, requiredText } from './common';

export const contactMessageSchema = z.object({
  name: personName(200),
  email: emailField(),
  // A missing or empty choice is 'required'; anything else outside the list is simply invalid.
  subject: z.enum(CONTACT_SUBJECTS, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? 'validation.required'
        : 'validation.invalid',
  }),
  message: requiredText(5000),
});
export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
