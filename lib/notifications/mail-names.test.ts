// The names a mail may carry (issue 46 §5): a first name that is plainly a name, never the rest.
import { describe, expect, it } from 'vitest';
import { mailableFirstName, namesInWords } from './mail-names';

describe('mailableFirstName', () => {
  it.each([
    ['Ana Lima', 'Ana'],
    ['José María', 'José'],
    ['Anne-Marie Roux', 'Anne-Marie'],
    ["O'Brien", "O'Brien"],
    ['Zoë', 'Zoë'],
    ['Łukasz', 'Łukasz'],
    // Only the first word goes anywhere: the rest of a name never reaches a mail.
    ['Click here https://evil.example', 'Click'],
    ['https://evil.example', null],
    ['www.evil.example', null],
    ['Ana1', null],
    ['<b>Ana</b>', null],
    ['Ana-', null],
    ['🙂', null],
    ['A'.repeat(21), null],
    ['', null],
  ])('%j → %j', (name, expected) => {
    expect(mailableFirstName(name)).toBe(expected);
  });
});

describe('namesInWords', () => {
  it.each([
    [[], null],
    [['Ana Lima'], 'Ana'],
    [['Ana Lima', 'Sam Okafor'], 'Ana and Sam'],
    [['Ana', 'Sam', 'Tomás'], 'Ana, Sam and Tomás'],
    [['Ana', 'Sam', 'Tomás', 'Priya'], 'Ana, Sam, Tomás and others'],
    [['Ana', 'www.evil.example'], 'Ana and others'],
    [['www.evil.example'], null],
  ])('%j → %j', (names, expected) => {
    expect(namesInWords(names)).toBe(expected);
  });
});
