// Path templates (`/pets/{petId}`): which template a request's path has, its parameters, and a
// template filled in. Matching looks at the path's shape as sent; decoding its parameters comes after.

export interface PathTemplate {
  readonly template: string;
  /** The parameters, still percent-encoded, of a path of this template's shape; null for another shape. */
  matchRaw(pathname: string): Record<string, string> | null;
  /** The template with its parameters filled in, each percent-encoded. */
  expand(params: Readonly<Record<string, string | number>>): string;
}

export function compilePathTemplate(template: string): PathTemplate {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return {
    template,
    matchRaw(pathname) {
      const found = regex.exec(pathname);
      if (found === null) return null;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i += 1) params[names[i] as string] = found[i + 1] ?? '';
      return params;
    },
    expand: (params) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? ''))),
  };
}

/** Percent-decoded parameters; null when one's percent-encoding does not decode (`%E0%A4%A`). */
export function decodeParams(raw: Readonly<Record<string, string>>): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name] as string;
    // Most parameters have nothing to decode: no call, no try, for those.
    if (!value.includes('%')) params[name] = value;
    else {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return params;
}
