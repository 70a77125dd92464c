// The first object of a JSON text that names a member twice (`{"id":999999,"id":1}`). RFC 8259 §4
// says the names SHOULD be unique, and parsers disagree on such an object: JSON.parse and Python keep
// the last value, others the first, some refuse it; so two clients read two different pets. JSON.parse
// cannot tell (it keeps one), hence one pass over the text, which is JSON already (the caller parsed it).
import { escapeToken } from '../../openapi/index.js';

export interface DuplicateName {
  /** The object's JSON Pointer in the body ('' for the body itself). */
  readonly pointer: string;
  readonly name: string;
}

interface Frame {
  /**
   * The names seen in an object, in a list while they are few (most objects have a handful, and a Set
   * each costs more), then in a Set (a list would make an object of many names quadratic); undefined
   * for an array.
   */
  readonly names: string[] | undefined;
  many: Set<string> | undefined;
  readonly pointer: string;
  /** An array's index of the value being read. */
  index: number;
  /** An object's last name read: the value after it is at its name. */
  name: string;
}

/** Past this many names an object's are kept in a Set. */
const FEW_NAMES = 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The first object in `json` (valid JSON) that has a member name twice, or undefined when none has. */
export function duplicateName(json: string): DuplicateName | undefined {
  const stack: Frame[] = [];
  let nameNext = false;
  const length = json.length;
  for (let at = 0; at < length; at += 1) {
    const code = json.charCodeAt(at);
    if (code === QUOTE) {
      let end = at + 1;
      let escaped = false;
      for (let c = json.charCodeAt(end); c !== QUOTE && end < length; c = json.charCodeAt(end)) {
        if (c === BACKSLASH) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      const top = stack.at(-1);
      if (nameNext && top?.names !== undefined) {
        const name = escaped ? (JSON.parse(json.slice(at, end + 1)) as string) : json.slice(at + 1, end);
        if (top.many !== undefined) {
          if (top.many.has(name)) return { pointer: top.pointer, name };
          top.many.add(name);
        } else {
          if (top.names.includes(name)) return { pointer: top.pointer, name };
          top.names.push(name);
          if (top.names.length > FEW_NAMES) top.many = new Set(top.names);
        }
        top.name = name;
        nameNext = false;
      }
      at = end;
    } else if (code === 0x7b || code === 0x5b) {
      // `{` or `[`: a value of its parent, at the parent's name or index.
      const parent = stack.at(-1);
      const pointer =
        parent === undefined
          ? ''
          : `${parent.pointer}/${parent.names === undefined ? parent.index : escapeToken(parent.name)}`;
      stack.push({ names: code === 0x7b ? [] : undefined, many: undefined, pointer, index: 0, name: '' });
      nameNext = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) stack.pop();
    else if (code === 0x2c) {
      const top = stack.at(-1);
      if (top?.names !== undefined) nameNext = true;
      else if (top !== undefined) top.index += 1;
    }
  }
  return undefined;
}
