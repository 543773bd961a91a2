// One connection to a syslog or CEF receiver: a connected UDP socket, or a kept-open TCP / TLS stream
// reopened on the next send after the peer closed it. A send resolves when the bytes were handed to
// the kernel (UDP) or written to the stream; neither protocol acknowledges receipt, so an event written
// into a connection the peer dropped a moment before is the one loss these protocols allow.
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import { DeliveryError, describeNetworkError } from './sink.js';

export interface SocketTarget {
  protocol: 'udp' | 'tcp' | 'tls';
  host: string;
  port: number;
  /** TLS without certificate verification. */
  insecure?: boolean;
  /** Connect timeout (default 10 s). */
  connectTimeoutMs?: number;
}

export interface SocketTransport {
  /** Sends each buffer (one datagram each over UDP; concatenated on a stream). */
  send(buffers: readonly Buffer[]): Promise<void>;
  close(): Promise<void>;
}

/** host:port → parts; IPv6 in brackets. */
export function splitHostPort(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  if (!m) throw new RangeError(`not host:port: ${address}`);
  return { host: m[1]!, port: Number(m[2]) };
}

export function createSocketTransport(target: SocketTarget): SocketTransport {
  const label = `${target.host}:${target.port}`;
  const connectTimeoutMs = target.connectTimeoutMs ?? 10_000;
  const fail = (err: unknown) => new DeliveryError(describeNetworkError(err, label), { retryable: true, cause: err });
  let stream: net.Socket | undefined;
  let udp: dgram.Socket | undefined;
  let closed = false;

  function openStream(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket =
        target.protocol === 'tls'
          ? tls.connect({ host: target.host, port: target.port, rejectUnauthorized: !target.insecure, ...(net.isIP(target.host) ? {} : { servername: target.host }) })
          : net.connect({ host: target.host, port: target.port });
      const timer = setTimeout(() => {
        socket.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' }));
      }, connectTimeoutMs);
      const onError = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      socket.once('error', onError);
      socket.once(target.protocol === 'tls' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        socket.setKeepAlive(true, 30_000);
        // Whatever ends the connection, the next send opens a new one.
        const drop = () => {
          if (stream === socket) stream = undefined;
          socket.destroy();
        };
        socket.on('error', drop);
        socket.on('end', drop);
        socket.on('close', drop);
        socket.resume(); // a receiver that talks back must not fill our buffers
        resolve(socket);
      });
    });
  }

  function openUdp(): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket(net.isIPv6(target.host) ? 'udp6' : 'udp4');
      socket.once('error', reject);
      // Connected, so that an ICMP "port unreachable" surfaces as ECONNREFUSED on a later send.
      socket.connect(target.port, target.host, () => {
        socket.off('error', reject);
        socket.on('error', () => {
          if (udp === socket) udp = undefined;
          socket.close();
        });
        resolve(socket);
      });
    });
  }

  async function sendStream(buffers: readonly Buffer[]): Promise<void> {
    const socket = stream && !stream.destroyed && !stream.readableEnded ? stream : (stream = await openStream());
    await new Promise<void>((resolve, reject) => {
      socket.write(Buffer.concat(buffers), (err) => (err ? reject(err) : resolve()));
    });
  }

  async function sendUdp(buffers: readonly Buffer[]): Promise<void> {
    const socket = udp ?? (udp = await openUdp());
    for (const buffer of buffers) {
      await new Promise<void>((resolve, reject) => socket.send(buffer, (err) => (err ? reject(err) : resolve())));
    }
  }

  return {
    async send(buffers) {
      if (closed) throw new DeliveryError('sink closed', { retryable: true });
      try {
        await (target.protocol === 'udp' ? sendUdp(buffers) : sendStream(buffers));
      } catch (err) {
        stream?.destroy();
        stream = undefined;
        if (udp) {
          udp.close();
          udp = undefined;
        }
        throw fail(err);
      }
    },
    async close() {
      closed = true;
      const s = stream;
      stream = undefined;
      if (s && !s.destroyed) await new Promise<void>((resolve) => s.end(resolve));
      s?.destroy();
      if (udp) {
        const u = udp;
        udp = undefined;
        await new Promise<void>((resolve) => u.close(() => resolve()));
      }
    },
  };
}
