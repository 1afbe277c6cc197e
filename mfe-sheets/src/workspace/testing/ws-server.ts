import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Test support: the server side of RFC 6455 WebSockets on a node:http server (text frames,
 * fragments, ping, close), so the Workspace's tests talk to a real socket on loopback without
 * a WebSocket package in this remote's dependencies.
 */
export interface TestSocket {
  readonly url: URL;
  /** The Sec-WebSocket-Protocol values the client offered. */
  readonly protocols: string[];
  send(text: string): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection without a close frame, as a lost network does. */
  destroy(): void;
  onMessage: ((text: string) => void) | null;
  onClose: (() => void) | null;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 65536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/**
 * Accepts upgrades on `server` whose path `accept` approves (return false to answer 404);
 * `onSocket` gets each open socket. The 'tessera.bearer' protocol is selected when offered.
 */
export function acceptWebSockets(server: Server, accept: (url: URL) => boolean, onSocket: (socket: TestSocket) => void): void {
  server.on('upgrade', (req: IncomingMessage, raw: Duplex) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = req.headers['sec-websocket-key'];
    if (typeof key !== 'string' || !accept(url)) {
      raw.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const acceptKey = createHash('sha1').update(key + GUID).digest('base64');
    raw.write(
      [
        'HTTP/1.1 101 Switching Protocols',
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Accept: ${acceptKey}`,
        ...(protocols.length > 0 ? [`Sec-WebSocket-Protocol: ${protocols[0]}`] : []),
        '',
        '',
      ].join('\r\n'),
    );

    let buffered = Buffer.alloc(0);
    let fragments: Buffer[] = [];
    let closed = false;
    const socket: TestSocket = {
      url,
      protocols,
      send(text) {
        if (!closed) raw.write(frame(1, Buffer.from(text)));
      },
      close(code = 1000, reason = '') {
        if (closed) return;
        const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
        payload.writeUInt16BE(code, 0);
        payload.write(reason, 2);
        raw.write(frame(8, payload));
        raw.end();
        finish();
      },
      destroy() {
        raw.destroy();
        finish();
      },
      onMessage: null,
      onClose: null,
    };
    const finish = () => {
      if (closed) return;
      closed = true;
      socket.onClose?.();
    };

    raw.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (buffered.length < 2) return;
        const fin = (buffered[0] & 0x80) !== 0;
        const opcode = buffered[0] & 0x0f;
        const masked = (buffered[1] & 0x80) !== 0;
        let length = buffered[1] & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffered.length < 4) return;
          length = buffered.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffered.length < 10) return;
          length = Number(buffered.readBigUInt64BE(2));
          offset = 10;
        }
        const maskAt = offset;
        if (masked) offset += 4;
        if (buffered.length < offset + length) return;
        const payload = Buffer.from(buffered.subarray(offset, offset + length));
        if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= buffered[maskAt + (i % 4)];
        buffered = buffered.subarray(offset + length);

        if (opcode === 8) {
          socket.close();
          return;
        }
        if (opcode === 9) {
          raw.write(frame(10, payload));
          continue;
        }
        if (opcode === 10) continue;
        fragments.push(payload);
        if (!fin) continue;
        const text = Buffer.concat(fragments).toString('utf8');
        fragments = [];
        socket.onMessage?.(text);
      }
    });
    raw.on('close', finish);
    raw.on('error', finish);
    onSocket(socket);
  });
}
