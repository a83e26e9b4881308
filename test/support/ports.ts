import net from 'node:net';

/**
 * Ports below the kernel's ephemeral range (32768 and up by default on Linux): a port the system
 * hands out for port 0 is also one it may give any outgoing connection (a database client's, say)
 * before our server binds it, which made a test app fail to listen now and then (EADDRINUSE).
 */
const LOW = 20_000;
const HIGH = 32_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A TCP port that is free on 127.0.0.1 right now, outside the range outgoing connections use. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}
