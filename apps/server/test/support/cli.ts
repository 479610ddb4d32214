/** Runs the real `svc` CLI as a child process (TypeScript sources through tsx). */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOOPBACK_ALLOWED } from './app.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', CLI, ...args], {
    // Like test apps, CLI processes may reach the test servers on this machine unless told otherwise.
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      SVC_CONNECTOR_ALLOWED_HOSTS: LOOPBACK_ALLOWED,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

export async function waitForHealth(url: string, cli: CliProcess, timeoutMs = 90_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (cli.child.exitCode !== null) throw new Error(`svc exited early (${cli.child.exitCode}):\n${cli.output()}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.status === 200) return response;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`svc did not become healthy:\n${cli.output()}`);
}
