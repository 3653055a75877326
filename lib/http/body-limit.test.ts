import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAfterAnswer } from './body-limit';

const MB = 1024 * 1024;
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that refuses every body at once, before reading it, as the front doors do. */
async function refusingServer(): Promise<number> {
  server = http.createServer((req, res) => {
    closeAfterAnswer(req, res);
    res.writeHead(413, { 'content-type': 'text/plain' });
    res.end('too large');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A raw client declaring 20 MB that sends 1 MB, reads the answer, then goes on sending
 * (as a client does whose body is already on its way) and finally waits for the server's end.
 */
function sendOn(port: number) {
  return new Promise<{ answer: string; error?: string; ended: boolean }>((resolve) => {
    // Half-open allowed: the server's end after its answer must not stop this side's sending.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let error: string | undefined;
    let sentMore = false;
    const chunk = Buffer.alloc(MB, 'x');
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('data', async (data: Buffer) => {
      answer += data.toString('latin1');
      if (sentMore || !answer.includes('too large')) return;
      sentMore = true;
      for (let i = 0; i < 4 && !error; i++) await new Promise<void>((done) => socket.write(chunk, () => done()));
    });
    socket.on('close', () => resolve({ answer, error, ended: true }));
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${20 * MB}\r\n\r\n`);
    socket.write(chunk);
    // The client closes its side once it has nothing more to send; the server then ends.
    setTimeout(() => socket.end(), 1_000);
  });
}

describe('closeAfterAnswer (an answer before the body was read)', () => {
  it('says the connection ends, and reads on while the client still sends, so the client meets no reset', async () => {
    const port = await refusingServer();
    const result = await sendOn(port);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer.toLowerCase()).toContain('connection: close');
    expect(result.error).toBeUndefined();
    expect(result.ended).toBe(true);
  });
});
