// Publishes pushed to every instance: the publish transaction sends NOTIFY catalog_published
// (catalog-admin/catalog-writer.repository.ts), delivered when it commits; each serving instance
// LISTENs on a pg client of its own (not one of the pool's) and refreshes its current version at
// once. A lost connection is re-opened every second, and refreshes once on every (re)connect,
// since a NOTIFY sent meanwhile is gone; CatalogService's poll of the publication log
// (CATALOG_REFRESH_MS) covers the time in between.
import { Logger } from '@nestjs/common';
import pg from 'pg';

/** The channel the publish transaction notifies (its payload: the published version's id). */
export const PUBLISH_CHANNEL = 'catalog_published';
const RECONNECT_MS = 1_000;

/** What the listener uses of a pg.Client (testing/fake-listen-server.ts fakes it). */
export interface ListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'notification', listener: (message: pg.Notification) => void): unknown;
}

/** Opens a LISTEN connection; by default a pg.Client. */
export type ListenClientFactory = (config: pg.ClientConfig) => ListenClient;

/** Nest token for a ListenClientFactory other than pg's (CatalogService). */
export const LISTEN_CLIENTS = Symbol('LISTEN_CLIENTS');

export class PublicationListener {
  private readonly logger = new Logger(PublicationListener.name);
  private client: ListenClient | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lostOnce = false;
  /** True while LISTEN is in place: publishes arrive as notifications. */
  listening = false;

  constructor(
    private readonly connectionString: string | undefined,
    private readonly connectTimeoutMs: number,
    /** Called on each notification and after each (re)connect. */
    private readonly onPublish: () => void,
    private readonly newClient: ListenClientFactory = (config) => new pg.Client(config),
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = this.newClient({ connectionString: this.connectionString, connectionTimeoutMillis: this.connectTimeoutMs, keepAlive: true });
    this.client = client;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost) return;
      lost = true;
      this.listening = false;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      if (!this.lostOnce) this.logger.warn(`Listening for catalog publishes stopped (${reason}); polling until it is back`);
      this.lostOnce = true;
      this.timer = setTimeout(() => void this.connect(), RECONNECT_MS);
      this.timer.unref();
    };
    client.on('error', (error) => onLost(error.message));
    client.on('end', () => onLost('connection ended'));
    client.on('notification', (message) => {
      if (message.channel === PUBLISH_CHANNEL) this.onPublish();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PUBLISH_CHANNEL}`);
    } catch (error) {
      onLost((error as Error).message);
      return;
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    if (this.lostOnce) this.logger.log('Listening for catalog publishes again');
    this.lostOnce = false;
    this.listening = true;
    // A publish while no one listened is caught up now.
    this.onPublish();
  }
}
