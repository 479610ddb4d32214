/**
 * A TCP proxy in front of a real server, for network faults: `stall()` stops carrying bytes both ways
 * (the sockets stay open, so a client sees its queries hang, as behind a dead network path) and holds
 * new connections; `resume()` carries on where it stopped, the protocol intact.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const held: net.Socket[] = [];
  let stalled = false;

  // Forwarded by hand rather than with pipe(): pipe() resumes a source on drain, which would undo a stall.
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (!stalled) from.resume();
    });
  };

  const connect = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    forward(client, upstream);
    forward(upstream, client);
    client.resume();
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };

  const server = net.createServer((client) => {
    if (stalled) {
      client.pause();
      held.push(client);
    } else {
      connect(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;

  return {
    port: address.port,
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      stalled = false;
      for (const [client, upstream] of pairs) {
        client.resume();
        upstream.resume();
      }
      for (const client of held.splice(0)) connect(client);
    },
    async close() {
      for (const client of held.splice(0)) client.destroy();
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
