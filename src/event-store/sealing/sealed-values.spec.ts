import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORGOTTEN, isSealed, keyIdOf, open, replaceAt, seal } from './sealed-values';
import { SubjectKeys } from './subject-keys';

describe('sealed values', () => {
  const key = randomBytes(32);

  it('open with their key at their place, and read as forgotten anywhere else or without it', () => {
    const sealed = seal({ street: 'Rua Augusta' }, 'k1', key, 'event-1 task');
    expect(isSealed(sealed)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('Augusta');
    expect(keyIdOf(sealed)).toBe('k1');
    expect(open(sealed, key, 'event-1 task')).toEqual({ street: 'Rua Augusta' });
    expect(open(sealed, key, 'event-2 task')).toBe(FORGOTTEN);
    expect(open(sealed, randomBytes(32), 'event-1 task')).toBe(FORGOTTEN);
    expect(open(sealed, undefined, 'event-1 task')).toBe(FORGOTTEN);
  });

  it('replace the values paths name, into arrays, passing over what is not there', () => {
    const data = {
      task: 'a',
      messages: [{ content: 'b', toolCalls: [{ input: 1 }, { input: 2 }] }, { content: 'c' }],
      approvals: 'not an array',
    };
    const places: string[] = [];
    replaceAt(
      data,
      ['task', 'messages[].content', 'messages[].toolCalls[].input', 'approvals[].args', 'none'],
      (v, at) => {
        places.push(at);
        return `<${String(v)}>`;
      },
    );
    expect(data).toEqual({
      task: '<a>',
      messages: [{ content: '<b>', toolCalls: [{ input: '<1>' }, { input: '<2>' }] }, { content: '<c>' }],
      approvals: 'not an array',
    });
    expect(places).toEqual([
      'task',
      'messages.0.content',
      'messages.1.content',
      'messages.0.toolCalls.0.input',
      'messages.0.toolCalls.1.input',
    ]);
  });
});

describe('SubjectKeys', () => {
  const file = () => join(mkdtempSync(join(tmpdir(), 'subject-keys-')), 'subject-keys.sqlite');
  const secret = 'a-data-key-secret-of-more-than-32-characters';

  it('keeps a key per subject across openings, destroys them, and opens nothing under another secret', () => {
    const path = file();
    const keys = new SubjectKeys(path, secret);
    const ada = keys.currentKey('ada');
    expect(keys.currentKey('ada')).toEqual(ada);
    keys.close();
    const again = new SubjectKeys(path, secret);
    expect(again.key(ada.keyId)).toEqual(ada.key);
    again.destroyKeys('ada');
    expect(again.key(ada.keyId)).toBeUndefined();
    expect(again.currentKey('ada').keyId).not.toBe(ada.keyId);
    const bob = again.currentKey('bob');
    again.close();
    const wrong = new SubjectKeys(path, 'another-secret-of-more-than-32-characters!');
    expect(() => wrong.key(bob.keyId)).toThrow();
    wrong.close();
  });

  it('binds streams and namespaces, the namespaces with those below them', () => {
    const keys = new SubjectKeys(file(), secret);
    keys.bindStream('thread-1', 'ada');
    keys.setNamespaces('ada', ['users/ada']);
    expect(keys.subjectOfStream('thread-1')).toBe('ada');
    expect(keys.subjectOfStream('thread-2')).toBeNull();
    expect(keys.subjectOfNamespace('users/ada/notes')).toBe('ada');
    expect(keys.subjectOfNamespace('users/adam')).toBeUndefined();
    expect(keys.streamsOf('ada')).toEqual(['thread-1']);
    keys.close();
  });
});
