export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('petkit mock: not built yet.\n');
  return 2;
}
