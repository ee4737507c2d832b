import { describe, expect, it } from 'vitest';
import { parsePrepareReply } from '../../analysis/tools/pythonPrelude';

describe("the python_execute prelude's reply (the sandbox's Python output)", () => {
  it('reads the last line as the reply, keeping fields of another version', () => {
    expect(parsePrepareReply('warming up\n{"fresh": true, "missing": [], "python": "3.12"}\n')).toMatchObject({
      fresh: true,
      missing: [],
    });
  });
  it('has no reply when the last line is not JSON or not the reply shape (the caller reports the prelude failed)', () => {
    expect(parsePrepareReply('Traceback (most recent call last):')).toBeNull();
    expect(parsePrepareReply('{"fresh": "yes", "missing": []}')).toBeNull();
    expect(parsePrepareReply('{"fresh": true}')).toBeNull();
  });
});
