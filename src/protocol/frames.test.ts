import { expect, test } from "bun:test";
import { encodeFrame, Frame, FrameReader, MAX_FRAME_BYTES } from "./frames.ts";

test("frames come out whole however the bytes are cut, and a length over the limit is refused from its header", () => {
  const stream = new Uint8Array([
    ...encodeFrame(Frame.output, "hello"),
    ...encodeFrame(Frame.event, '{"event":"exit"}'),
    ...encodeFrame(Frame.screen, new Uint8Array(70_000)),
  ]);
  for (const size of [1, 3, 5, 7, 4096, 65536, stream.length]) {
    const reader = new FrameReader();
    const frames = [];
    for (let at = 0; at < stream.length; at += size) frames.push(...reader.push(stream.subarray(at, at + size)));
    expect(frames.map((f) => [f.type, f.payload.length])).toEqual([
      [Frame.output, 5],
      [Frame.event, 16],
      [Frame.screen, 70_000],
    ]);
    expect(new TextDecoder().decode(frames[0]!.payload)).toBe("hello");
  }
  const header = new Uint8Array(5);
  header[0] = Frame.output;
  new DataView(header.buffer).setUint32(1, MAX_FRAME_BYTES + 1);
  expect(() => new FrameReader().push(header)).toThrow("over the limit");
});
