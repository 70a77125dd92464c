export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('petkit contract: not built yet.\n');
  return 2;
}
