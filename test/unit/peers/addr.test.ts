import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatPeerAddr,
  fromIp,
  fromWire,
  isLoopback,
  isPublic,
  parseIp,
  parseSocketAddr,
  peerKey,
  toWire,
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

test('wire addresses: 4 or 16 IP bytes both ways, printed as Rust prints them', () => {
  const v4 = { ip: Uint8Array.of(198, 18, 0, 2), port: 3414 };
  assert.deepEqual(fromWire(v4), { ip: '198.18.0.2', port: 3414 });
  assert.deepEqual(toWire({ ip: '198.18.0.2', port: 3414 }), v4);
  const v6 = new Uint8Array(16);
  v6[0] = 0x20;
  v6[1] = 0x01;
  v6[2] = 0x0d;
  v6[3] = 0xb8;
  v6[15] = 1;
  assert.deepEqual(fromWire({ ip: v6, port: 1 }), { ip: '2001:db8::1', port: 1 });
  assert.deepEqual(toWire({ ip: '2001:db8::1', port: 1 }), { ip: v6, port: 1 });
  const mapped = new Uint8Array(16);
  mapped.set([0xff, 0xff, 10, 0, 0, 1], 10);
  assert.deepEqual(fromWire({ ip: mapped, port: 2 }), { ip: '::ffff:10.0.0.1', port: 2 });
  assert.deepEqual(toWire({ ip: '::ffff:10.0.0.1', port: 2 }), { ip: mapped, port: 2 });
});

test("Epic's find_peer_addrs filter: loopback, unspecified and private ranges stay home", () => {
  const pub = (ip: string) => isPublic({ ip, port: 3414 });
  for (const ip of ['127.0.0.1', '127.255.0.9', '0.0.0.0', '10.0.0.1', '10.255.255.255'])
    assert.equal(pub(ip), false, ip);
  for (const ip of [
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '::1',
    '::',
    'fc00::1',
    'fdff::1',
  ])
    assert.equal(pub(ip), false, ip);
  for (const ip of ['172.15.255.255', '172.32.0.0', '192.167.0.1', '192.169.0.1', '11.0.0.1'])
    assert.equal(pub(ip), true, ip);
  for (const ip of [
    '198.18.0.1',
    '203.0.113.7',
    'fbff::1',
    'fe00::1',
    '2001:db8::1',
    '::ffff:10.0.0.1',
  ])
    assert.equal(pub(ip), true, ip);
});
