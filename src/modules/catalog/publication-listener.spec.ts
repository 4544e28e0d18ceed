// PublicationListener on a fake LISTEN connection (testing/fake-listen-server.ts) and fake timers:
// what it calls back on, and how it recovers a lost connection, whose NOTIFYs are gone.
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { PublicationListener, PUBLISH_CHANNEL } from './publication-listener.js';
import { FakeListenServer } from './testing/fake-listen-server.js';

/** Runs what is due now (promise callbacks included), without moving the clock. */
const settle = () => jest.advanceTimersByTimeAsync(0);

function setUp() {
  const server = new FakeListenServer();
  const calls = { count: 0 };
  const listener = new PublicationListener('postgres://fake/catalog', 2_000, () => (calls.count += 1), server.open);
  listeners.push(listener);
  return { server, calls, listener };
}

const listeners: PublicationListener[] = [];

describe(PublicationListener.name, () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(async () => {
    for (const listener of listeners.splice(0)) await listener.stop();
    jest.useRealTimers();
  });

  it('LISTENs on a connection of its own, calls back once on connecting and on each catalog_published NOTIFY only', async () => {
    const { server, calls, listener } = setUp();
    listener.start();
    await settle();
    expect(server.clients.map((c) => c.config)).toEqual([{ connectionString: 'postgres://fake/catalog', connectionTimeoutMillis: 2_000, keepAlive: true }]);
    expect(server.listeners(PUBLISH_CHANNEL)).toBe(1);
    expect(listener.listening).toBe(true);
    expect(calls.count).toBe(1); // the catch-up on connecting
    server.notify('some_other_channel', 'x');
    expect(calls.count).toBe(1);
    server.notify(PUBLISH_CHANNEL, 'version-id');
    server.notify(PUBLISH_CHANNEL, 'version-id');
    expect(calls.count).toBe(3);
  });

  it('re-opens a dropped connection a second later and calls back on it, since a NOTIFY sent meanwhile is lost', async () => {
    const { server, calls, listener } = setUp();
    listener.start();
    await settle();
    calls.count = 0;
    server.dropAll();
    expect(listener.listening).toBe(false);
    server.notify(PUBLISH_CHANNEL, 'published-while-down'); // no one is listening: lost
    await jest.advanceTimersByTimeAsync(999);
    expect(server.clients).toHaveLength(1);
    expect(calls.count).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.clients).toHaveLength(2);
    expect(server.listeners(PUBLISH_CHANNEL)).toBe(1);
    expect(listener.listening).toBe(true);
    expect(calls.count).toBe(1);
    server.notify(PUBLISH_CHANNEL, 'next');
    expect(calls.count).toBe(2);
  });

  it('tries again every second while PostgreSQL refuses connections, and calls back once one is open', async () => {
    const { server, calls, listener } = setUp();
    listener.start();
    await settle();
    calls.count = 0;
    server.accepting = false;
    server.dropAll();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(server.clients).toHaveLength(4); // the first and three refused
    expect(listener.listening).toBe(false);
    expect(calls.count).toBe(0);
    server.accepting = true;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(server.clients).toHaveLength(5);
    expect(listener.listening).toBe(true);
    expect(calls.count).toBe(1);
  });

  it('opens no connection again once stopped', async () => {
    const { server, calls, listener } = setUp();
    listener.start();
    await settle();
    await listener.stop();
    expect(server.listeners(PUBLISH_CHANNEL)).toBe(0);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(server.clients).toHaveLength(1);
    expect(calls.count).toBe(1);
  });
});
