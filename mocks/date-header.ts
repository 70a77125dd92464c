// The Date header of every answer, by the mock's clock (so a moved clock shows in it). Built once per
// second of that clock, not once per answer.

/** A function from the mock's time (ms) to its HTTP date, remembering the last second it built. */
export function createDateHeader(): (now: number) => string {
  let second = Number.NaN;
  let text = '';
  return (now) => {
    const at = Math.floor(now / 1000);
    if (at !== second) {
      second = at;
      text = new Date(at * 1000).toUTCString();
    }
    return text;
  };
}
