/**
 * `npm test`: the type check and jest side by side; fails if either fails. The type check (tsc over
 * every workspace, about a minute) used to hold up jest's first file, on two cores that jest leaves
 * partly idle while its tests wait on servers. Arguments go to jest (`npm test -- path/to/file`).
 * The type check's output is held and printed after jest's, so the two do not interleave.
 */
import { spawn } from 'node:child_process';

function run(command: string, args: string[], capture: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, NODE_OPTIONS: '--disable-warning=TimeoutNegativeWarning' },
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const typecheck = run('npm', ['run', '-s', 'typecheck'], true).then((result) => ({
    ...result,
    seconds: (Date.now() - started) / 1000,
  }));
  const jest = await run('jest', process.argv.slice(2), false);
  const types = await typecheck;
  if (types.output.trim()) process.stdout.write(`\n${types.output}`);
  process.stdout.write(
    `type check ${types.code === 0 ? 'passed' : 'FAILED'} (${types.seconds.toFixed(0)} s, beside jest)\n`,
  );
  process.exit(types.code !== 0 ? types.code : jest.code);
}

void main();
