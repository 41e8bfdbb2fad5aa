import { describe, expect, it } from 'vitest';
import { memberNameOf } from './displayName';

describe('memberNameOf', () => {
  it('is the display name, else the @username, else the neutral word: never the e-mail', () => {
    expect(memberNameOf({ displayName: ' Anna Bianchi ', username: 'anna_b' }, 'Member')).toBe(
      'Anna Bianchi',
    );
    expect(memberNameOf({ displayName: '', username: 'anna_b' }, 'Member')).toBe('@anna_b');
    const user = { displayName: '  ', username: null, email: 'anna.bianchi@example.com' };
    expect(memberNameOf(user, 'Membro')).toBe('Membro');
  });
});
