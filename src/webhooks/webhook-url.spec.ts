import { SecretBox, newSigningSecret } from './webhook-secrets';
import { WebhookUrlPolicy } from './webhook-url';

describe('webhook URLs', () => {
  const policy = new WebhookUrlPolicy(['127.0.0.1:8080', 'receiver.internal']);
  afterAll(() => policy.close());

  it.each([
    ['https://localhost/hook', /127\.0\.0\.1|::1/],
    ['https://10.0.0.1/hook', /10\.0\.0\.1/],
    ['http://example.com/hook', /must be https/],
    ['http://127.0.0.1:8081/hook', /must be https/],
    ['https://user@example.com/', /user name or password/],
    ['mailto:a@example.com', /https/],
    ['https://[::127.0.0.1]/hook', /127\.0\.0\.1|::7f00:1.*not a public address/],
    ['https://[::7f00:1]/hook', /not a public address/],
    ['https://[::ffff:10.0.0.1]/hook', /not a public address/],
    ['https://example.com/a\r\nHost: evil', /control characters/],
    ['https://exa\tmple.com/', /control characters/],
  ])('refuses %s', async (url, why) => {
    expect(await policy.refusal(url)).toMatch(why);
  });

  it.each(['http://127.0.0.1:8080/hook', 'http://receiver.internal/hook', 'https://93.184.215.14/hook'])(
    'allows %s',
    async (url) => {
      expect(await policy.refusal(url)).toBeUndefined();
    },
  );
});

describe('sealed webhook secrets', () => {
  it('open with the key and webhook they were sealed for, and no other', () => {
    const secret = newSigningSecret();
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal(secret, 'whk_1');
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed, 'whk_1')).toBe(secret);
    expect(() => box.open(sealed, 'whk_2')).toThrow();
    expect(() => new SecretBox('j'.repeat(32)).open(sealed, 'whk_1')).toThrow();
  });
});
