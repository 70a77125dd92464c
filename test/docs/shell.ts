// Runs a page's sh blocks as a user at a terminal would, in the scratch app, in page order.
//
// One thing differs, and only this: the mock. A line that starts `petkit mock` (in a terminal of its
// own, or with `&`) is started with `--port 0` added, since a test may not take the fixed port 4010;
// it runs until the page ends, and in the commands after it `127.0.0.1:4010` means the port it
// printed. In what the commands print, that port is written back as 4010.
import { type ChildProcess, spawn } from 'node:child_process';
import { type Block, commandsOf } from './blocks.js';

export const DOCS_PORT = '4010';
const NPM_CONFIG_WARNING = /^npm warn Unknown (?:env|user|project|builtin) config .*\n/gm;
const MOCK_LINE = /^(?:(?:npx )?petkit mock\b|npm start\b)(?!.*--help)/;

export interface CommandResult {
  readonly command: string;
  readonly output: string;
  readonly exitCode: number | null;
}

/** What a block printed: its only command's output, or `$ command` and output for each. */
export function transcript(results: readonly CommandResult[]): string {
  if (results.length === 1) return results[0]?.output ?? '';
  return results.map((result) => `$ ${result.command}\n${result.output.replace(/\n?$/, '\n')}`).join('\n');
}

function stripComment(command: string): string {
  return command.replace(/\s+#[^'"]*$/, '').replace(/\s*&$/, '');
}

export class PageShell {
  #mock: ChildProcess | undefined;
  #port: string | undefined;

  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The command as it runs here: the mock's real port in place of 4010. */
  localise(command: string): string {
    return this.#port === undefined ? command : command.replaceAll(`:${DOCS_PORT}`, `:${this.#port}`);
  }

  /**
   * Output as the page shows it: 4010 in place of the mock's real port, and without npm's warnings
   * about this machine's own npm configuration (not petkit's, and not on a user's machine).
   */
  delocalise(output: string): string {
    const clean = output.replace(NPM_CONFIG_WARNING, '');
    return this.#port === undefined ? clean : clean.replaceAll(`:${this.#port}`, `:${DOCS_PORT}`);
  }

  async runBlock(block: Block, cwd = this.cwd): Promise<CommandResult[]> {
    const results: CommandResult[] = [];
    for (const command of commandsOf(block)) {
      results.push(MOCK_LINE.test(command) ? await this.startMock(command) : await this.#run(command, cwd));
    }
    return results;
  }

  #run(command: string, cwd: string): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', `(${this.localise(command)}) 2>&1`], {
        cwd,
        env: this.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString();
      });
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ command, output: this.delocalise(output), exitCode }));
    });
  }

  /** Starts the mock a command line starts, on a free port; its output is the banner. */
  async startMock(command: string): Promise<CommandResult> {
    await this.close();
    const line = stripComment(command);
    const portZero = line.startsWith('npm ') ? `${line} -- --port 0` : `${line} --port 0`;
    // A process group of its own: npx and npm start do not pass SIGTERM on to the mock they start.
    const child = spawn('bash', ['-c', `exec ${portZero}`], {
      cwd: this.cwd,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.#mock = child;
    let output = '';
    const banner = await new Promise<string>((resolve, reject) => {
      const onData = (data: Buffer) => {
        output += data.toString();
        const end = output.indexOf('Ctrl-C stops it.\n');
        if (end >= 0) resolve(output.slice(0, end + 'Ctrl-C stops it.\n'.length));
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) =>
        reject(new Error(`\`${command}\` exited ${code} before serving:\n${output}`)),
      );
    });
    this.#port = /serving the Pet Adoption API at http:\/\/[^:]+:(\d+)\//.exec(banner)?.[1];
    return { command, output: this.delocalise(banner), exitCode: 0 };
  }

  /** Stops the page's mock, if it started one, and waits for it to exit. */
  async close(): Promise<void> {
    const child = this.#mock;
    this.#mock = undefined;
    this.#port = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}
