import { Redaction, withoutUrlCredentials } from './redaction';

describe('redaction', () => {
  it('takes credentials out of every URL in a text, and leaves the rest', () => {
    expect(withoutUrlCredentials('failed: https://admin:hunter2@db.internal:8080/v1?x=1 and http://token@h/ ok')).toBe(
      'failed: https://***@db.internal:8080/v1?x=1 and http://***@h/ ok',
    );
    // A password holding an unencoded "@": the host starts after the last one.
    expect(withoutUrlCredentials('see https://u:p@ss@host/path')).toBe('see https://***@host/path');
    expect(withoutUrlCredentials('mail me at someone@example.com, https://example.com/a@b')).toBe(
      'mail me at someone@example.com, https://example.com/a@b',
    );
  });

  it('takes out every configured secret wherever it appears, the longest first', () => {
    const redaction = new Redaction(['sk-abcdef0123456789', 'sk-abcdef0123456789-long', undefined, 'short']);
    expect(redaction.apply('key sk-abcdef0123456789-long, then sk-abcdef0123456789x and a short word')).toBe(
      'key ***, then ***x and a short word',
    );
  });
});
