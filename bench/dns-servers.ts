/**
 * The reference name servers the DNS plane is measured against, serving the same zone: NSD and
 * PowerDNS Authoritative (its SQLite backend), from Debian packages installed when missing. Each
 * runs in the foreground as a child of the benchmark, on a free loopback port, with its files in
 * the benchmark's temporary directory, never as a system service (test/helpers/nsd.ts runs them,
 * as the tests that need a real name server do). Each gets one worker, as the DNS plane has one
 * event loop: NSD one server process, PowerDNS one receiver thread and one distributor thread;
 * both keep their other defaults (PowerDNS's packet cache included).
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensureDebianPackage } from '../test/helpers/debian-package.js';
import { type DnsServer, freePort, startNameServer, startNsd as startNsdServing } from '../test/helpers/nsd.js';
import { DNS_ZONE } from './dns-zone.js';
import { ROOT, startChild } from './server.js';

export type { DnsServer };

export function startNsd(dir: string, zoneFile: string): Promise<DnsServer> {
  return startNsdServing(dir, [{ name: DNS_ZONE, file: zoneFile }]);
}

export async function startPowerDns(dir: string, zoneFile: string): Promise<DnsServer> {
  await ensureDebianPackage('pdns_server', 'pdns-server');
  await ensureDebianPackage('pdnsutil', 'pdns-server');
  // The backend is a package without a command: its schema file tells whether it is there.
  const schema = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';
  if (!existsSync(schema)) aptInstall('pdns-backend-sqlite3');
  const database = join(dir, 'pdns.sqlite3');
  rmSync(database, { force: true });
  const db = new Database(database);
  db.exec(readFileSync(schema, 'utf8'));
  db.close();
  const port = await freePort();
  writeFileSync(
    join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${database}`,
      'local-address=127.0.0.1',
      `local-port=${port}`,
      'daemon=no',
      'guardian=no',
      'disable-syslog=yes',
      `socket-dir=${dir}`,
      'write-pid=no',
      'loglevel=3',
      'receiver-threads=1',
      'distributor-threads=1',
      'security-poll-suffix=',
      '',
    ].join('\n'),
  );
  execFileSync('pdnsutil', [`--config-dir=${dir}`, 'load-zone', DNS_ZONE, zoneFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  return startNameServer('PowerDNS', 'pdns_server', [`--config-dir=${dir}`], port, DNS_ZONE, () => '');
}

/**
 * The floor of any DNS server on Node: a `node:dgram` socket that sends every datagram back as
 * its answer (the query's bytes, flagged as a response, no records), with nothing else in the
 * process. It costs what Node's UDP path costs per query, which the DNS plane pays too: receiving
 * (a buffer and an address object per datagram) and one `sendmsg` per answer. Its row in the table
 * is the most any Node server could reach on one event loop here; `-e` keeps it free of any file.
 */
const NODE_FLOOR = `const s=require('node:dgram').createSocket({type:'udp4',recvBufferSize:4<<20,lookup:(h,o,cb)=>cb(null,h,4)});
s.on('message',(m,r)=>{const a=Buffer.allocUnsafe(m.length);m.copy(a);a[2]|=0x84;s.send(a,r.port,r.address)});
s.bind(0,'127.0.0.1',()=>process.stdout.write('floor: listening on dns://127.0.0.1:'+s.address().port+'\\n'));process.once('SIGTERM',()=>process.exit(0));`;

/**
 * The same responder over the DNS plane's batched UDP socket (native/udp-batch): datagrams read
 * with one `recvmmsg` up to 64 at a time, answered with one `sendmmsg`. The most the plane could
 * reach with it here; absent (no row) when the addon is not built.
 */
const BATCHED_FLOOR = `const b=require(process.argv[1]),S=b.SLOTS,B=b.SLOT_BYTES,M=b.META_INTS;
const i=Buffer.alloc(S*B),im=Buffer.alloc(S*M*4),o=Buffer.alloc(S*B),om=Buffer.alloc(S*12);
const m=new Int32Array(im.buffer,im.byteOffset,S*M),a=new Int32Array(om.buffer,om.byteOffset,S*3);
const r=b.open('127.0.0.1',0,4,4<<20,i,im,o,om,(n)=>{let k=0;for(let s=0;s<n;s++){const l=m[s*M];if(l<12)continue;const f=s*B;i.copy(o,f,f,f+l);o[f+2]|=0x84;a[k*3]=s;a[k*3+1]=f;a[k*3+2]=l;k++}return k});
process.stdout.write('floor: listening on dns://127.0.0.1:'+r.port+'\\n');process.once('SIGTERM',()=>process.exit(0));`;

export async function startBatchedFloor(): Promise<DnsServer | undefined> {
  const addon = join(ROOT, 'native', 'udp-batch', 'build', 'Release', 'udp_batch.node');
  if (!existsSync(addon)) return undefined;
  const child = await startChild('bare batched (addon)', ['-e', BATCHED_FLOOR, addon], /floor: listening on (dns:\/\/127\.0\.0\.1:\d+)/, process.env);
  return { name: child.name, pid: child.pid, port: Number(new URL(child.url).port), stop: child.stop };
}

export async function startNodeFloor(): Promise<DnsServer> {
  const child = await startChild('bare node:dgram', ['-e', NODE_FLOOR], /floor: listening on (dns:\/\/127\.0\.0\.1:\d+)/, process.env);
  return { name: child.name, pid: child.pid, port: Number(new URL(child.url).port), stop: child.stop };
}

function aptInstall(pkg: string): void {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  execSync(`${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${pkg}`, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
