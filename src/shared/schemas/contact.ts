import { z } from 'zod';
import { CONTACT_SUBJECTS } from '../constants';
import { emailField, requiredText } from './common';

export const contactMessageSchema = z.object({
  name: requiredText(200),
  email: emailField(),
  subject: z.enum(CONTACT_SUBJECTS, { error: 'validation.required' }),
  message: requiredText(5000),
});
export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
