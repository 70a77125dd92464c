// Where a JSON text gives a name twice in one object, and a place in a text in words (line and
// column): for the files the mock reads (json-text.ts) and the control API's bodies. Browser-safe:
// the control API runs in process, in a browser too.

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
}

/**
 * Where a JSON text (one JSON.parse read) gives a name twice in one object, in words
 * (`has a name twice in one object, at line 1, column 2 and line 1, column 9: …`); undefined when it
 * gives none twice. Not quoted: a name may be anything the text holds, a key too.
 */
export function repeatedNameFault(text: string): string | undefined {
  const twice = repeatedName(text);
  if (twice === undefined) return undefined;
  return `has a name twice in one object, at ${lineAndColumn(text, twice.first)} and ${lineAndColumn(text, twice.again)}: JSON would keep the last; give it once`;
}

/**
 * The first member name given twice in one object of a text JSON.parse read (so valid JSON), with
 * the offsets of its two places; undefined when there is none. One pass, a stack of its own (any depth).
 */
function repeatedName(text: string): { first: number; again: number } | undefined {
  // Per open object, its names so far and where each was; undefined for an open array.
  const open: (Map<string, number> | undefined)[] = [];
  let expectingName = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end += 1) {
        const d = text.charCodeAt(end);
        if (d === 0x5c /* \ */) {
          escaped = true;
          end += 1;
        } else if (d === 0x22) break;
      }
      i = end;
      const names = open.at(-1);
      if (expectingName && names !== undefined) {
        const raw = text.slice(start, end + 1);
        const name = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const first = names.get(name);
        if (first !== undefined) return { first, again: start };
        names.set(name, start);
        expectingName = false;
      }
    } else if (c === 0x7b /* { */) {
      open.push(new Map());
      expectingName = true;
    } else if (c === 0x5b /* [ */) {
      open.push(undefined);
      expectingName = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
      expectingName = false;
    } else if (c === 0x2c /* , */) {
      expectingName = open.at(-1) !== undefined;
    }
  }
  return undefined;
}
