import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { selectProtocol, socketToken } from './live-auth.js';

const req = (protocol?: string) => ({ headers: protocol === undefined ? {} : { 'sec-websocket-protocol': protocol } }) as IncomingMessage;

describe('socket token', () => {
  it('prefers ?token=, else takes the token next to the tessera.bearer subprotocol', () => {
    assert.equal(socketToken(req('tessera.bearer, abc.def.ghi'), 'q.t.k'), 'q.t.k');
    assert.equal(socketToken(req('tessera.bearer, abc.def.ghi'), undefined), 'abc.def.ghi');
    assert.equal(socketToken(req('abc.def.ghi,tessera.bearer'), undefined), 'abc.def.ghi');
    assert.equal(socketToken(req('abc.def.ghi'), undefined), undefined, 'a bare protocol is not taken as a token');
    assert.equal(socketToken(req(), undefined), undefined);
  });

  it('selects the marker protocol, never the token', () => {
    assert.equal(selectProtocol(new Set(['tessera.bearer', 'abc.def.ghi'])), 'tessera.bearer');
    assert.equal(selectProtocol(new Set(['chat'])), false);
  });
});
