import { describe, expect, it } from 'vitest';
import { digestText } from './digest';

describe('digestText', () => {
  it('says how many messages, chats and requests wait, and where, in singular and plural', () => {
    const one = digestText({ messages: 1, chats: 1, requests: 1, newest: new Date() }, 'https://b.example');
    expect(one.subject).toBe('Buddy Match: 1 unread message and 1 buddy request');
    expect(one.lines).toEqual([
      '1 unread message in 1 chat: https://b.example/account/chats',
      '1 buddy request to answer: https://b.example/account/requests',
    ]);
    const many = digestText({ messages: 5, chats: 2, requests: 0, newest: new Date() }, 'https://b.example');
    expect(many.subject).toBe('Buddy Match: 5 unread messages');
    expect(many.lines).toEqual(['5 unread messages in 2 chats: https://b.example/account/chats']);
  });
});

describe('digestText names who wrote and who asked (issue 46 §5)', () => {
  it('by first name, and only names that are plainly names', () => {
    const news = {
      messages: 3,
      chats: 2,
      requests: 2,
      newest: new Date(),
      writers: ['Ana Lima', 'Sam Okafor'],
      askers: ['Tomás Costa', 'www.evil.example'],
    };
    expect(digestText(news, 'https://b.example').lines).toEqual([
      '3 unread messages from Ana and Sam in 2 chats: https://b.example/account/chats',
      '2 buddy requests from Tomás and others to answer: https://b.example/account/requests',
    ]);
  });
});
