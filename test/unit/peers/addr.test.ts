import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatPeerAddr,
  fromIp,
  isLoopback,
  parseIp,
  parseSocketAddr,
  peerKey,
} from '../../../actors/peers/addr.js';

const show = (text: string) => {
  const a = parseSocketAddr(text);
  return a === null ? null : formatPeerAddr(a);
};

test('socket addresses print as Rust prints them', () => {
  assert.equal(show('1.2.3.4:3414'), '1.2.3.4:3414');
  assert.equal(show('1.2.3.4:003414'), '1.2.3.4:3414');
  assert.equal(show('[::1]:3414'), '[::1]:3414');
  assert.equal(show('[2001:DB8:0:0:0:0:0:1]:3414'), '[2001:db8::1]:3414');
  assert.equal(show('[2001:db8:0:1:0:0:0:1]:1'), '[2001:db8:0:1::1]:1');
  assert.equal(show('[1:0:2:0:3:0:4:0]:1'), '[1:0:2:0:3:0:4:0]:1');
  assert.equal(show('[0:0:1:0:0:1:0:0]:1'), '[::1:0:0:1:0:0]:1');
  assert.equal(show('[::ffff:1.2.3.4]:3414'), '[::ffff:1.2.3.4]:3414');
  assert.equal(show('[::ffff:102:304]:1'), '[::ffff:1.2.3.4]:1');
  assert.equal(show('[::]:0'), '[::]:0');
  assert.equal(show('[1:2:3:4:5:6:1.2.3.4]:7'), '[1:2:3:4:5:6:102:304]:7');
});

test('text Rust refuses as a socket address is refused', () => {
  for (const bad of [
    '1.2.3.4',
    '::1',
    '01.2.3.4:1',
    '1.2.3.256:1',
    '1.2.3:1',
    '1.2.3.4:65536',
    '1.2.3.4:',
    '1.2.3.4:-1',
    'localhost:3414',
    '[fe80::1%2]:1',
    '::1:3414',
    '[1.2.3.4]:1',
    '',
  ])
    assert.equal(parseSocketAddr(bad), null, bad);
});

test('bare IPs and the default port of Epic PeerAddr::from_ip', () => {
  assert.equal(parseIp('1.2.3.4'), '1.2.3.4');
  assert.equal(parseIp('0:0::1'), '::1');
  assert.equal(parseIp('1.2.3.4:3414'), null);
  assert.deepEqual(fromIp('1.2.3.4', false), { ip: '1.2.3.4', port: 3414 });
  assert.deepEqual(fromIp('1.2.3.4', true), { ip: '1.2.3.4', port: 13_414 });
});

test('store keys ignore the port unless the IP is loopback', () => {
  const key = (t: string) =>
    peerKey(parseSocketAddr(t) as NonNullable<ReturnType<typeof parseSocketAddr>>);
  assert.equal(key('1.2.3.4:3414'), '1.2.3.4');
  assert.equal(key('1.2.3.4:9999'), '1.2.3.4');
  assert.equal(key('127.0.0.1:3414'), '127.0.0.1:3414');
  assert.equal(key('127.9.9.9:1'), '127.9.9.9:1');
  assert.equal(key('[::1]:23414'), '::1:23414');
  assert.equal(key('[2001:db8::1]:1'), '2001:db8::1');
  assert.equal(isLoopback({ ip: '::ffff:127.0.0.1', port: 1 }), false);
});
