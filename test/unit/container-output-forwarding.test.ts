/**
 * The containers' output to their log forwarding (domain/containers/runtime/container-syslog.ts,
 * output-forwarding.ts): the messages in RFC 5424 and RFC 3164, sent over UDP and TCP to a real
 * collector (one that goes down keeps the lines until it is back), a refused address said and
 * nothing sent; and which containers are followed, from when, and that a follow taken up again
 * sends nothing twice (a fake runtime: the podman follow is in the container-apps test).
 */
import { lookup } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { OutputForwarding } from '../../src/domain/containers/runtime/output-forwarding.js';
import { type Replica, replicaOf } from '../../src/domain/containers/runtime/replicas.js';
import { containerSyslogMessage, type ForwardingTarget } from '../../src/domain/containers/runtime/container-syslog.js';
import { SYSLOG_HOSTNAME } from '../../src/domain/edge/logs/forwarding/syslog.js';
import { OriginAddresses } from '../../src/domain/edge/origin/addresses.js';
import { startSyslogReceiver } from '../helpers/syslog-receiver.js';
import { within } from '../helpers/within.js';

/** The origin address policy itself (a class: what forwarding is given in the server), loopback allowed. */
const open = new OriginAddresses({ privateAddresses: 'allow', listenHost: '', ownPorts: [] });
const at = Date.parse('2026-11-03T04:05:06.789Z');
const out = { at, line: 'listening on 8080', container: 'ep-app1-t1-0-abc', appId: 'app1' };

describe('containerSyslogMessage', () => {
  it('writes RFC 5424 as the platform shows it, the token as structured data', () => {
    expect(containerSyslogMessage({ format: 'SyslogRfc5424', token: null }, out)).toBe(
      '<134>1 2026-11-03T04:05:06.789Z - - - - - {"log":"listening on 8080","time":"2026-11-03T04:05:06.789Z","container":"ep-app1-t1-0-abc"}',
    );
    expect(containerSyslogMessage({ format: 'SyslogRfc5424', token: 'a"b]' }, out)).toContain(' [edgeplane@32473 token="a\\"b\\]"] {"log"');
  });

  it('writes RFC 3164 with a BSD time, the host and the application as its tag, the token in the JSON', () => {
    expect(containerSyslogMessage({ format: 'SyslogRfc3164', token: 'k1' }, { ...out, at: Date.parse('2026-11-03T14:05:06Z') })).toBe(
      `<134>Nov  3 14:05:06 ${SYSLOG_HOSTNAME} app1: {"log":"listening on 8080","time":"2026-11-03T14:05:06.000Z","container":"ep-app1-t1-0-abc","token":"k1"}`,
    );
  });
});

describe('OutputForwarding', () => {
  function replica(id: string, appId: string, state = 'running', startedAt = at): Replica {
    return replicaOf(
      { id, name: `ep-${appId}-${id}`, labels: { 'io.edgeplane.app': appId }, state, exitCode: null, startedAt, pid: 1, restarts: 0, ports: new Map() },
      0,
    );
  }

  /** A runtime whose follows are recorded, their lines told by the test. */
  function fakeRuntime() {
    const follows: { id: string; since: number; onLine: (at: number, line: string) => void; ended: (reason: string) => void; stopped: boolean }[] = [];
    return {
      follows,
      follow(id: string, since: number, onLine: (at: number, line: string) => void, ended: (reason: string) => void) {
        const f = { id, since, onLine, ended, stopped: false };
        follows.push(f);
        return { stop: () => (f.stopped = true) };
      },
    };
  }

  it('follows the running containers of applications that forward, from their start or the forwarding, and takes a follow up again after its last line', async () => {
    const receiver = await startSyslogReceiver('udp');
    const runtime = fakeRuntime();
    let now = at + 10_000;
    const forwarding = new OutputForwarding(
      runtime,
      open,
      () => undefined,
      () => now,
    );
    const targets = new Map<string, ForwardingTarget>([
      ['app1', { type: 'SyslogUdp', endpoint: '127.0.0.1', port: receiver.port, format: 'SyslogRfc5424', token: null }],
    ]);
    try {
      // app1's running container since `at` (before forwarding was on), one stopped; app2 forwards nothing.
      const running = replica('c1', 'app1');
      const later = replica('c3', 'app1', 'running', at + 20_000);
      forwarding.sync(targets, [running, replica('c2', 'app1', 'exited'), replica('c9', 'app2')]);
      expect(runtime.follows.map((f) => [f.id, f.since])).toEqual([['c1', at + 10_000]]);
      const [first] = runtime.follows;
      first!.onLine(at + 9_000, 'before forwarding');
      first!.onLine(at + 11_000, 'one');
      first!.onLine(at + 12_000, 'two');
      await within(2000, async () => receiver.messages.length === 2);
      expect(receiver.messages.map((m) => JSON.parse(m.slice(m.indexOf('{'))).log)).toEqual(['one', 'two']);
      // The container restarted: its follow ended and is taken up after the last line sent.
      first!.ended('exited');
      now = at + 30_000;
      forwarding.sync(targets, [running, later]);
      expect(runtime.follows.slice(1).map((f) => [f.id, f.since])).toEqual([
        ['c1', at + 12_000],
        ['c3', at + 20_000],
      ]);
      runtime.follows[1]!.onLine(at + 12_000, 'two');
      runtime.follows[1]!.onLine(at + 13_000, 'three');
      await within(2000, async () => receiver.messages.length === 3);
      expect(JSON.parse(receiver.messages[2]!.slice(receiver.messages[2]!.indexOf('{'))).log).toBe('three');
      // Forwarding removed: every follow stops.
      forwarding.sync(new Map(), [running, later]);
      expect(runtime.follows.slice(1).map((f) => f.stopped)).toEqual([true, true]);
    } finally {
      forwarding.close();
      await receiver.stop();
    }
  });
  it('sends each line over TCP as the message it was written as, octet-counted', async () => {
    const receiver = await startSyslogReceiver('tcp');
    const runtime = fakeRuntime();
    const forwarding = new OutputForwarding(
      runtime,
      open,
      () => undefined,
      () => at + 1,
    );
    const target: ForwardingTarget = { type: 'SyslogTcp', endpoint: '127.0.0.1', port: receiver.port, format: 'SyslogRfc5424', token: 'k1' };
    try {
      forwarding.sync(new Map([['app1', target]]), [replica('c1', 'app1')]);
      runtime.follows[0]!.onLine(at + 2, 'ready ü');
      await within(2000, async () => receiver.messages.length === 1);
      expect(receiver.messages).toEqual([containerSyslogMessage(target, { at: at + 2, line: 'ready ü', container: 'ep-app1-c1', appId: 'app1' })]);
    } finally {
      forwarding.close();
      await receiver.stop();
    }
  });

  it('sends nothing to a refused collector, saying why once', async () => {
    const errors: string[] = [];
    const refusing = { lookupFor: () => lookup, refusal: () => 'a link-local address' };
    const runtime = fakeRuntime();
    const forwarding = new OutputForwarding(
      runtime,
      refusing,
      (e) => errors.push((e as Error).message),
      () => at + 1,
    );
    const target: ForwardingTarget = { type: 'SyslogUdp', endpoint: '127.0.0.1', port: 514, format: 'SyslogRfc5424', token: null };
    try {
      forwarding.sync(new Map([['app1', target]]), [replica('c1', 'app1')]);
      runtime.follows[0]!.onLine(at + 2, 'x');
      runtime.follows[0]!.onLine(at + 3, 'y');
      await within(2000, async () => errors.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(errors).toEqual(['log collector 127.0.0.1:514: a link-local address']);
    } finally {
      forwarding.close();
    }
  });
});
