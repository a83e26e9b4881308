import { describe, expect, it } from 'vitest';
import { AUTH_ERRORS, rateLimitedText } from './messages';

describe('the rate-limit text says the real wait (issue 7, rough edge 3)', () => {
  it('a minute or less keeps the short text', () => {
    expect(rateLimitedText(1)).toBe(AUTH_ERRORS.tooManyAttempts);
    expect(rateLimitedText(60)).toBe(AUTH_ERRORS.tooManyAttempts);
  });
  it('longer waits are said in whole minutes, then hours, rounded up', () => {
    expect(rateLimitedText(61)).toBe('Too many attempts. Please wait 2 minutes and try again.');
    expect(rateLimitedText(588)).toBe('Too many attempts. Please wait 10 minutes and try again.');
    expect(rateLimitedText(3600)).toBe('Too many attempts. Please wait an hour and try again.');
    expect(rateLimitedText(3601)).toBe('Too many attempts. Please wait 2 hours and try again.');
  });
});
