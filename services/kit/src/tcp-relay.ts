import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@decor/contracts/test-ports';

/**
 * How an outage looks to the clients of a cut relay:
 * - 'refuse': the server is gone (process stopped): connections are reset, new ones refused.
 * - 'hang': the server is there but answers nothing (a frozen process, a dropped network): open
 *   connections stay open and silent, new ones are accepted and never answered.
 */
export type OutageMode = 'refuse' | 'hang';

export interface TcpRelay {
  /** The relay's own port: give it to the service instead of the server's. */
  port: number;
  host: string;
  /** Makes the server unreachable through the relay. */
  cut(mode?: OutageMode): Promise<void>;
  /** Relays again (on the same port); nothing happens to a relay that is not cut. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a server, for outage tests: cut it and whatever connects through it
 * sees the server down, while everything else on the machine (the shared test servers) goes on.
 */
export async function tcpRelay(target: { host: string; port: number }, port?: number): Promise<TcpRelay> {
  const host = '127.0.0.1';
  const ownPort = port ?? (await freePort());
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let mode: OutageMode | 'up' = 'up';

  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        track(client);
        if (mode === 'hang') return; // accepted, never answered
        const upstream = connect(target.port, target.host);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(ownPort, host, () => {
        server = s;
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) resolve();
      else s.close(() => resolve());
    });

  await listen();
  return {
    port: ownPort,
    host,
    async cut(how: OutageMode = 'refuse') {
      mode = how;
      if (how === 'refuse') {
        const closed = stopListening();
        for (const s of sockets) s.destroy();
        await closed;
      } else {
        // Silence every open connection: stop moving bytes both ways.
        for (const s of sockets) {
          s.unpipe();
          s.removeAllListeners('data');
          s.pause();
        }
      }
    },
    async restore() {
      if (mode === 'up') return;
      // Connections silenced by 'hang' cannot be resumed mid-stream: drop them, clients reconnect.
      for (const s of sockets) s.destroy();
      mode = 'up';
      if (!server) await listen();
    },
    async close() {
      mode = 'refuse';
      const closed = stopListening();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/**
 * What starts a Kafka broker for `kafkaBehindRelay`: @decor/stack's `startKafka`, passed in by the
 * test (the kit does not depend on the stack).
 */
type StartBroker = (options: {
  port: number;
  controllerPort: number;
  advertisedPort: number;
  dir: string;
  log: (line: string) => void;
  quiet: boolean;
  useStorageTemplate: boolean;
}) => Promise<{ stop(): Promise<void> }>;

export interface KafkaBehindRelay {
  /** KAFKA_BROKERS for the service under test: the relay's address. */
  brokers: string[];
  relay: TcpRelay;
  stop(): Promise<void>;
}

/**
 * A Kafka broker of its own whose clients all go through a relay: it advertises the relay's port,
 * so after the bootstrap every connection (to the broker the metadata names) passes the relay
 * too, and cutting it takes Kafka away from whoever uses `brokers` while the broker keeps its data.
 */
export async function kafkaBehindRelay(
  startKafka: StartBroker,
  log: (line: string) => void = () => {},
): Promise<KafkaBehindRelay> {
  // A drawn port is free when drawn, not when the broker binds it seconds later (another test
  // process may take it meanwhile: a full run of the order outage test once met "Address already in use").
  for (let attempt = 1; ; attempt++) {
    try {
      return await brokerBehindRelay(startKafka, log);
    } catch (err) {
      if (attempt === 3 || !/Address already in use/.test(String(err))) throw err;
      log(`kafka: a drawn port was taken before the broker bound it; new ports (attempt ${attempt + 1})`);
    }
  }
}

async function brokerBehindRelay(
  startKafka: StartBroker,
  log: (line: string) => void,
): Promise<KafkaBehindRelay> {
  const [port, controllerPort] = [await freePort(), await freePort()];
  const relay = await tcpRelay({ host: '127.0.0.1', port });
  const dir = mkdtempSync(join(tmpdir(), 'decor-kafka-relay-'));
  try {
    const broker = await startKafka({
      port,
      controllerPort,
      advertisedPort: relay.port,
      dir,
      log,
      quiet: true,
      useStorageTemplate: true,
    });
    return {
      brokers: [`127.0.0.1:${relay.port}`],
      relay,
      stop: async () => {
        await relay.close();
        await broker.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
