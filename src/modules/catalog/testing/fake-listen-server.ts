// PostgreSQL's side of LISTEN/NOTIFY for publication-listener.ts, in memory: connections that
// LISTEN and get notifications, and what a test does to them: drop them (as pg_terminate_backend
// does: 'error', then 'end'), refuse new ones, or send a NOTIFY that no connection is there for.
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { ListenClient } from '../publication-listener.js';

export class FakeListenServer {
  /** Every connection opened, in order. */
  readonly clients: FakeListenClient[] = [];
  /** False: new connections fail, as while PostgreSQL is down. */
  accepting = true;

  /** A ListenClientFactory (publication-listener.ts) whose clients connect here. */
  readonly open = (config: pg.ClientConfig): ListenClient => {
    const client = new FakeListenClient(this, config);
    this.clients.push(client);
    return client;
  };

  /** NOTIFY: delivered to each open connection LISTENing on `channel`, to no one else. */
  notify(channel: string, payload?: string): void {
    for (const client of this.clients) client.deliver({ processId: 1, channel, payload });
  }

  /** Terminates every open connection from the server's side. */
  dropAll(): void {
    for (const client of this.clients) client.drop();
  }

  /** Open connections that LISTEN on `channel`. */
  listeners(channel: string): number {
    return this.clients.filter((c) => c.open && c.channels.has(channel)).length;
  }
}

export class FakeListenClient extends EventEmitter implements ListenClient {
  open = false;
  private closed = false;
  readonly channels = new Set<string>();

  constructor(
    private readonly server: FakeListenServer,
    readonly config: pg.ClientConfig,
  ) {
    super();
  }

  async connect(): Promise<void> {
    if (this.closed) throw new Error('Client was closed and is not queryable');
    if (!this.server.accepting) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    this.open = true;
  }

  async query(text: string): Promise<void> {
    if (!this.open) throw new Error('Client was closed and is not queryable');
    const listen = /^LISTEN (\w+)$/.exec(text);
    if (!listen?.[1]) throw new Error(`the fake answers LISTEN only, not: ${text}`);
    this.channels.add(listen[1]);
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    this.emit('end');
  }

  deliver(message: pg.Notification): void {
    if (this.open && this.channels.has(message.channel)) this.emit('notification', message);
  }

  drop(): void {
    if (!this.open) return;
    this.open = false;
    this.emit('error', new Error('terminating connection due to administrator command'));
    void this.end();
  }
}
