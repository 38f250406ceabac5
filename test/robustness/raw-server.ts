/**
 * The language server driven by raw bytes on its stdin: for faults a well-behaved client library cannot produce
 * (broken frames, requests after shutdown, a client that vanishes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_BIN } from '../../cli/src/lsp-client';

export interface Message {
  jsonrpc: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export function frame(body: unknown): string {
  const s = typeof body === 'string' ? body : JSON.stringify(body);
  return `Content-Length: ${Buffer.byteLength(s, 'utf8')}\r\n\r\n${s}`;
}

export class RawServer {
  readonly child: ChildProcess;
  readonly messages: Message[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer = Buffer.alloc(0);
  private listeners: Array<() => void> = [];
  private nextId = 1000;

  /** `nodeArgs` go to Node before the server's script (a module to preload, say). */
  constructor(args: string[] = ['--stdio'], nodeArgs: string[] = []) {
    this.child = spawn(process.execPath, [...nodeArgs, SERVER_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (b: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, b]);
      this.parse();
    });
    this.child.stderr!.on('data', (b: Buffer) => {
      this.stderr += b.toString();
      this.notify();
    });
    this.child.stdin!.on('error', () => undefined); // writes after the server exits
    this.exited = new Promise((res) =>
      this.child.on('exit', (code, signal) => {
        res({ code, signal });
        this.notify();
      }),
    );
  }

  private parse(): void {
    for (;;) {
      const sep = this.buffer.indexOf('\r\n\r\n');
      if (sep < 0) return;
      const m = /Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, sep).toString());
      if (!m) throw new Error(`the server wrote a frame without Content-Length: ${this.buffer.subarray(0, sep).toString()}`);
      const len = Number(m[1]);
      if (this.buffer.length < sep + 4 + len) return;
      this.messages.push(JSON.parse(this.buffer.subarray(sep + 4, sep + 4 + len).toString('utf8')) as Message);
      this.buffer = this.buffer.subarray(sep + 4 + len);
      this.notify();
    }
  }

  private notify(): void {
    this.listeners.splice(0).forEach((l) => l());
  }

  write(raw: string): void {
    this.child.stdin!.write(raw);
  }
  send(body: unknown): void {
    this.write(frame(body));
  }

  request(method: string, params?: unknown): number {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, params });
    return id;
  }

  notifyServer(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Waits for a message matching `pred`; rejects after `ms` or when the server exits first. */
  async waitFor(pred: (m: Message) => boolean, ms = 10000, what = 'a message'): Promise<Message> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.messages.find(pred);
      if (hit) return hit;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the server exited before ${what}; stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; stderr: ${this.stderr}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, Math.min(left, 200));
        this.listeners.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  /** Waits until stderr matches `re`; rejects after `ms` or when the server exits first. */
  async stderrMatching(re: RegExp, ms = 10000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!re.test(this.stderr)) {
      if (this.child.exitCode !== null) throw new Error(`the server exited before writing ${re} to stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${re} on stderr within ${ms} ms; stderr: ${this.stderr}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, Math.min(left, 200));
        this.listeners.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  response(id: number, ms = 10000): Promise<Message> {
    return this.waitFor((m) => m.id === id && m.method === undefined, ms, `the response to request ${id}`);
  }

  async initialize(
    capabilities: unknown = { textDocument: { diagnostic: {} } },
    processId: number | null = process.pid,
    initializationOptions?: unknown,
  ): Promise<Message> {
    const r = await this.response(this.request('initialize', { processId, rootUri: null, capabilities, initializationOptions }));
    this.notifyServer('initialized', {});
    return r;
  }

  /** Exit code within `ms`, or undefined if it still runs. */
  async exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
    return Promise.race([this.exited, new Promise<undefined>((res) => setTimeout(() => res(undefined), ms))]);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
