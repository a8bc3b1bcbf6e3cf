import { PreparedMessage, serializeFrame, StompFrameError, StompParser } from './stomp-frame';

describe('PreparedMessage', () => {
  it('is the MESSAGE frame serializeFrame builds, with the per-subscription headers filled in', () => {
    const body = JSON.stringify({
      type: 2,
      msg: '充电桩CP-1的1号枪充电异常停止',
      date: '2025-06-01 08:00:00',
    });
    const prepared = new PreparedMessage('/user/topic/transRunStatusStop', body, { command: 'a:b' });
    const text = prepared.frame('sub-0', 'session-1').toString('utf8');
    const [head, rest] = text.split('\n\n');
    const lines = head.split('\n');
    expect(lines[0]).toBe('MESSAGE');
    expect(new Set(lines.slice(1))).toEqual(
      new Set([
        'command:a\\cb',
        'destination:/user/topic/transRunStatusStop',
        'content-type:application/json;charset=UTF-8',
        `content-length:${Buffer.byteLength(body, 'utf8')}`,
        'subscription:sub-0',
        'message-id:session-1',
      ]),
    );
    expect(rest).toBe(`${body}\0`);
    // The same bytes as the general serializer (header order aside).
    const general = serializeFrame(
      'MESSAGE',
      {
        command: 'a:b',
        subscription: 'sub-0',
        'message-id': 'session-1',
        destination: '/user/topic/transRunStatusStop',
        'content-type': 'application/json;charset=UTF-8',
      },
      body,
    ).toString('utf8');
    expect(new Set(general.split('\n\n')[0].split('\n'))).toEqual(new Set(lines));
    expect(Buffer.byteLength(general)).toBe(Buffer.byteLength(text));
  });

  it('escapes a subscription id with special characters', () => {
    expect(new PreparedMessage('/topic/x', '{}').frame('a:b\nc', 'm').toString()).toContain(
      'subscription:a\\cb\\nc\n',
    );
  });
});

describe('StompParser', () => {
  const stream = Buffer.concat([
    Buffer.from('\n\r\n'),
    Buffer.from('CONNECT\naccept-version:1.2\nhost:a:b\n\n\0'),
    Buffer.from('\n'),
    Buffer.from('SEND\r\ndestination:/app/x\r\ncontent-length:5\r\n\r\na\0b\nc\0'),
    Buffer.from('SUBSCRIBE\nid:1\ndestination:/topic/a\\cb\n\nignored body\0'),
  ]);
  const expected = [
    { command: 'CONNECT', headers: { 'accept-version': '1.2', host: 'a:b' }, body: '' },
    { command: 'SEND', headers: { destination: '/app/x', 'content-length': '5' }, body: 'a\0b\nc' },
    { command: 'SUBSCRIBE', headers: { id: '1', destination: '/topic/a:b' }, body: 'ignored body' },
  ];
  const parse = (chunks: Buffer[]) => {
    const parser = new StompParser(1024);
    const frames: { command: string; headers: Record<string, string>; body: string }[] = [];
    let heartbeats = 0;
    for (const chunk of chunks) {
      const out = parser.push(chunk);
      heartbeats += out.heartbeats;
      frames.push(...out.frames.map((f) => ({ ...f, body: f.body.toString('utf8') })));
    }
    return { frames, heartbeats };
  };

  it.each([
    ['one chunk', [stream]],
    ['one byte at a time', [...stream].map((b) => Buffer.from([b]))],
    [
      'chunks of 7 bytes',
      Array.from({ length: Math.ceil(stream.length / 7) }, (_, i) => stream.subarray(i * 7, i * 7 + 7)),
    ],
  ])('reads the same frames and heart-beats from %s', (_case, chunks) => {
    expect(parse(chunks)).toEqual({ frames: expected, heartbeats: 3 });
  });

  it('does not change the chunks it was given', () => {
    const chunks = [...stream].map((b) => Buffer.from([b]));
    parse(chunks);
    expect(Buffer.concat(chunks)).toEqual(stream);
  });

  it.each([
    ['a NUL before the end of the headers', 'SEND\ndestination:/app/x\0', 'Frame has no header terminator'],
    ['an unknown command', 'HELLO\n\n\0', "Unknown command 'HELLO'"],
    ['a content-length over the limit', 'SEND\ncontent-length:2000\n\n', "Invalid content-length '2000'"],
    ['a body longer than its content-length', 'SEND\ncontent-length:1\n\nab\0', 'not terminated by NUL'],
  ])('refuses %s', (_case, text, message) => {
    expect(() => new StompParser(1024).push(Buffer.from(text))).toThrow(message);
  });

  it('refuses a frame over the limit, however it is split, in time linear in its bytes', () => {
    const parser = new StompParser(256 * 1024);
    parser.push(Buffer.from('SEND\ndestination:/app/x\n'));
    const byte = Buffer.from('a');
    const started = Date.now();
    let error: unknown;
    try {
      for (let i = 0; i < 300_000; i++) parser.push(byte);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StompFrameError);
    expect((error as Error).message).toBe('Frame exceeds 262144 bytes');
    // Rescanning the whole buffer on every byte took minutes here.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
