#!/usr/bin/env python3
"""Issue 15's download benchmark: `cove download` of the 120 s stream's top variant against wget fetching the
same files one after another (one process, keep-alive), on loopback and at 20 Mbit/s per connection, served by
the shared peer harness's server.py (imported from ../shared/tools/peer-bench, not copied), interleaved.

  python3 bench/offline.py --cove .build/release/cove --media $PERF_ROOT/media/s120 [--reps 5] [--loopback-reps 15] --md out.md

Timed per run: the whole command (exec to exit, what a user waits for) and the transfer window (first request
to the last byte written, from the server's own log: process start-up left out, as TTFF net leaves it out for
playback); peak RSS of the process (/usr/bin/time %M); bytes sent. Cove stores each file as a part, checks,
hashes (SHA-256), fsyncs and renames it and records it in its index; wget just writes the files.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'tools', 'peer-bench'))
sys.path.insert(0, HARNESS)
import server  # noqa: E402  (the harness's server: Range, keep-alive, per-connection pacing, request log)


def timed(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (seconds, peak RSS KiB, CPU seconds (user + system, waited-for
    children included), returncode, stderr)."""
    out = subprocess.run(['/usr/bin/time', '-f', '__TIME__ %e %M %U %S'] + cmd, capture_output=True, text=True, env=env)
    line = [l for l in out.stderr.splitlines() if l.startswith('__TIME__ ')][-1].split()
    return float(line[1]), int(line[2]), float(line[3]) + float(line[4]), out.returncode, out.stderr


def window(log):
    ok = [r for r in log if r.get('status') in (200, 206)]
    if not ok:
        return None, 0
    return max(r['t1'] for r in ok) - min(r['t0'] for r in ok), sum(r['bytes'] for r in ok)


def run_wget(base, files, scratch):
    lst = os.path.join(scratch, 'urls.txt')
    with open(lst, 'w') as f:
        f.write(''.join(base + p + '\n' for p in files))
    dest = os.path.join(scratch, 'wget')
    os.makedirs(dest)
    return timed(['wget', '-q', '-nH', '-x', '-P', dest, '-i', lst])


def run_wget_pair(base, files, scratch):
    """Two wget processes splitting the files (alternate files each, started together): what two bare
    connections with no hashing, flushing or index cost on this machine -- the floor under Cove's two."""
    dest = os.path.join(scratch, 'wget')
    os.makedirs(dest)
    cmds = []
    for k, half in enumerate((files[0::2], files[1::2])):
        lst = os.path.join(scratch, 'urls%d.txt' % k)
        with open(lst, 'w') as f:
            f.write(''.join(base + p + '\n' for p in half))
        cmds.append('wget -q -nH -x -P %s -i %s' % (dest, lst))
    return timed(['sh', '-c', ' & '.join(cmds) + ' & wait'])


def run_wget_each(base, files, scratch):
    """One wget per file, one after another (a new process and connection each): the naive loop."""
    dest = os.path.join(scratch, 'wget')
    script = ''.join('wget -q -nH -x -P %s %s || exit 1\n' % (dest, base + p) for p in files)
    return timed(['sh', '-c', script])


def run_cove(cove, base, scratch):
    store = os.path.join(scratch, 'store')
    return timed([cove, 'download', base + 'master.m3u8', '--store', store, '--no-images', '--no-captions'])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cove', required=True)
    ap.add_argument('--media', required=True, help='the harness s120 stream folder')
    ap.add_argument('--reps', type=int, default=5, help='measured runs per peer over the paced link (each takes 10-20 s)')
    ap.add_argument('--loopback-reps', type=int, default=15,
                    help='measured runs per peer on loopback: each takes a tenth of a second, and the ratio moves by +-10%% from run to run')
    ap.add_argument('--warmup', type=int, default=1)
    ap.add_argument('--md', required=True)
    a = ap.parse_args()
    media = os.path.realpath(a.media)
    files = ['master.m3u8', 'v2/index.m3u8'] + sorted('v2/' + n for n in os.listdir(os.path.join(media, 'v2')) if n.endswith('.ts'))
    size = sum(os.path.getsize(os.path.join(media, p)) for p in files)
    rows = []
    for label, kbps, reps in [('loopback', 0, a.loopback_reps), ('20 Mbit/s per connection', 20000, a.reps)]:
        srv = server.start(media, 0, kbps * 1000 / 8, 0)
        base = 'http://127.0.0.1:%d/' % srv.server_address[1]
        res = {'wget': [], 'wget-each': [], 'wget-pair': [], 'cove': []}
        for rep in range(a.warmup + reps):
            for peer in ('wget', 'wget-each', 'wget-pair', 'cove'):
                scratch = tempfile.mkdtemp(prefix='cove-offline-bench-')
                with srv.lock:
                    srv.log.clear()
                if peer == 'wget':
                    seconds, rss, cpu, rc, err = run_wget(base, files, scratch)
                elif peer == 'wget-each':
                    seconds, rss, cpu, rc, err = run_wget_each(base, files, scratch)
                elif peer == 'wget-pair':
                    seconds, rss, cpu, rc, err = run_wget_pair(base, files, scratch)
                else:
                    seconds, rss, cpu, rc, err = run_cove(a.cove, base, scratch)
                time.sleep(0.2)  # the server thread records the last request after its final write
                with srv.lock:
                    win, sent = window(list(srv.log))
                shutil.rmtree(scratch, ignore_errors=True)
                if rc != 0:
                    print('%s failed (%d): %s' % (peer, rc, err[-400:]), file=sys.stderr)
                    continue
                if rep >= a.warmup:
                    res[peer].append({'wall': seconds, 'window': win, 'rss': rss / 1024, 'cpu': cpu, 'bytes': sent})
                print('%s %s rep %d: %.2f s wall, %.3f s window, %.3f s CPU, %.0f MiB, %d bytes' % (label, peer, rep, seconds, win or 0, cpu, rss / 1024, sent), file=sys.stderr)
        srv.shutdown()
        med = {p: {k: statistics.median(r[k] for r in res[p]) for k in ('wall', 'window', 'rss', 'cpu', 'bytes')} for p in res if res[p]}
        rows.append((label, med, {p: len(res[p]) for p in res}))
    with open(a.md, 'w') as out:
        out.write('<!-- offline:begin -->\n## Downloads: Cove against wget (issue #15)\n\n')
        out.write('The harness\'s 120 s stream, its top variant (3 Mbit/s, 60 TS segments, %.1f MB with both playlists), served by\n' % (size / 1e6))
        out.write('the shared peer harness\'s `server.py`; `cove download URL --no-images --no-captions` into a fresh store against\n')
        out.write('`wget -i` of the same %d files (one process, keep-alive, one after another; the target is judged against it), and\n' % len(files))
        out.write('a wget per file (a process and a connection each, one after another), and two wget processes splitting the files\n')
        out.write('(the floor), interleaved, %d measured runs each on loopback and %d over the link (plus %d warm-up).\n' % (a.loopback_reps, a.reps, a.warmup))
        out.write('"Transfer" is first request to last byte from the server\'s log (process start-up left out);\n')
        out.write('"whole command" is exec to exit. Cove fetches over 2 connections (`connectionsPerDownload`) and fsyncs, hashes and\n')
        out.write('indexes every file; pacing is per connection, as the harness does it, so a second connection adds throughput.\n\n')
        out.write('| link | metric | Cove median | wget median | Cove/wget | target | |\n|---|---|---|---|---|---|---|\n')
        for label, med, counts in rows:
            if 'cove' not in med or 'wget' not in med:
                out.write('| %s | – | failed | | | | |\n' % label)
                continue
            c, w = med['cove'], med['wget']
            r_win = c['window'] / w['window'] if w['window'] else float('nan')
            r_wall = c['wall'] / w['wall'] if w['wall'] else float('nan')
            out.write('| %s | transfer s | **%.2f** | %.2f | **%.2f×** | ≤ 0.80× | %s |\n' % (label, c['window'], w['window'], r_win, 'met' if r_win <= 0.8 else 'not met'))
            out.write('| %s | whole command s | %.2f | %.2f | %.2f× | reported | |\n' % (label, c['wall'], w['wall'], r_wall))
            out.write('| %s | CPU s (user + system, whole command) | %.3f | %.3f | %.2f× | reported | |\n' % (label, c['cpu'], w['cpu'], c['cpu'] / w['cpu'] if w['cpu'] else float('nan')))
            out.write('| %s | peak RSS MiB | %.0f | %.0f | – | stated | |\n' % (label, c['rss'], w['rss']))
            out.write('| %s | bytes fetched | %d | %d | %.3f× | | |\n' % (label, c['bytes'], w['bytes'], c['bytes'] / w['bytes'] if w['bytes'] else float('nan')))
            if 'wget-each' in med:
                e = med['wget-each']
                out.write('| %s | transfer s, against one wget per file | %.2f | %.2f | %.2f× | reported | |\n' % (label, c['window'], e['window'], c['window'] / e['window'] if e['window'] else float('nan')))
            if 'wget-pair' in med:
                pr = med['wget-pair']
                out.write('| %s | two wget processes splitting the files, against one wget (the floor) | %.3f | %.3f | %.2f× | reported | |\n' % (label, pr['window'], w['window'], pr['window'] / w['window'] if w['window'] else float('nan')))
        out.write('\nOn loopback the target is not met (0.88-0.99x in the runs of 2026-11-27), and on this machine we do not expect it to\n')
        out.write('be: the "floor" row says why. Two bare wget processes splitting the same files, with no hashing, no flushing and no\n')
        out.write('index, take 0.66-0.79x one wget here. The client and the Python origin share 2 cores, and with two connections the\n')
        out.write('window is CPU-bound (perf shows no idle time in it; the origin\'s time per file doubles). Cove must also do what the\n')
        out.write('same issue asks: SHA-256 over every byte (about 30 ms of CPU for these 47.7 MB, with SHA-NI), an fsync and a rename\n')
        out.write('per file, and an index transaction per file; and before its first segment it reads both playlists and records the\n')
        out.write('plan (about 5 ms, where wget starts at once). Builds with the hash, the fsync and the length record taken out\n')
        out.write('measured 0.90x in a harness where the full build measured 0.99x. One Cove connection leaves about 0.8 ms between a\n')
        out.write('response and the next request, as wget does. Over a link (20 Mbit/s per connection) this work hides behind the\n')
        out.write('network, and the second connection doubles the throughput.\n')
        out.write('<!-- offline:end -->\n')


if __name__ == '__main__':
    main()
