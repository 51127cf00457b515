#!/usr/bin/env python3
"""Cove against its peers (issue 4): turn the peer-bench JSONL files into Markdown, measure floors, assemble RESULTS.md.

Python 3 standard library only.  Subcommands:

  report   --results DIR [--warmup 1] [--out FILE]
           Reads DIR/<scenario>.jsonl (one bench.py row per run), DIR/meta.jsonl (one line per scenario
           written by bench/peers.sh), DIR/floor-<scenario>.json and DIR/stepdown-tc.log, and writes the
           peer sections: a summary of the issue-4 targets (Cove median (min–max), each peer's median,
           ratio Cove/peer, target, met / not met) followed by one detail table per scenario.

  floor    --bench-dir DIR --stream s120 [--rate-kbps R] [--delay-ms D] [--reps N] [--seek-seg K] --out FILE
           The whole-segment startup floor under the same pacing: a bare HTTP/1.1 client against the shared
           server.py (imported from DIR, the copy run.sh makes) fetches master, the first-listed variant's
           playlist and its first segment on one keep-alive connection; the floor is the time from sending
           the first request until the segment's last byte arrived (what `ttff_net_ms` counts from, minus
           the player's first-frame decode of about 1.5 ms).  Optionally also one segment at seek target K
           at the lowest and highest variant.  Run it inside the same netns as the scenario.

  assemble --out bench/RESULTS.md [--cove-bench FILE] [--peers FILE] [--header TEXT]
           Writes the final document: header + cove-bench section(s) + peer section(s), each between
           marker comments.  A part that is not given is carried over from the existing --out file.
"""
import argparse, json, math, os, re, socket, statistics, sys, time, http.client

PEERS = ['cove', 'gst-playbin3', 'hlsjs', 'vhs', 'native']
PEER_NAMES = {'cove': 'Cove', 'gst-playbin3': 'gst-playbin3', 'hlsjs': 'hls.js', 'vhs': 'VHS',
              'native': 'Chromium native', 'mpv': 'mpv', 'ffplay': 'ffplay', 'gst-playbin': 'gst-playbin',
              'gst-play': 'gst-play'}

# Scenario titles, in report order; the commands that produce them live in bench/peers.sh.
SCENARIOS = [
    ('startup-p0', 'Startup, loopback (P0)'),
    ('startup-p1', 'Startup, throttled 4 Mbit/s per connection + 40 ms (P1)'),
    ('teaser-p0', 'Teaser abandoned after 5 s, loopback (P0)'),
    ('teaser-p2', 'Teaser abandoned after 5 s, netns tbf 6 Mbit/s + 20 ms (P2)'),
    ('seek-p2', 'Seek to an unbuffered point, netns tbf 6 Mbit/s + 20 ms (P2)'),
    ('stepdown-p4', 'Step-down network 6 → 0.8 → 6 Mbit/s (P4)'),
    ('play20-p0', '20 s played, loopback: CPU and peak RSS against raw playbin3 (P0)'),
    ('startup-dash-p0', 'DASH startup, loopback (P0; the s30 streams remuxed to DASH)'),
    ('seek-dash-p2', 'DASH seek to an unbuffered point, netns tbf 6 Mbit/s + 20 ms (P2; s120 remuxed to DASH)'),
]
MARKERS = {'cove-bench': ('<!-- cove-bench:begin -->', '<!-- cove-bench:end -->'),
           'peers': ('<!-- peers:begin -->', '<!-- peers:end -->')}


# ----------------------------------------------------------------------------------------------- helpers

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def lohi(xs):
    xs = [x for x in xs if x is not None]
    return (min(xs), max(xs)) if xs else (None, None)

def fmt_num(x, unit):
    if x is None:
        return '–'
    if unit == 'MB':
        x = x / 1e6
        return '%.2f' % x if x < 10 else '%.1f' % x
    if unit == 'ms' and abs(x) < 10 and x != int(x):
        return '%.1f' % x
    return '%.0f' % x

def fmt_ratio(a, b):
    if a is None or b is None:
        return '–'
    if b == 0:
        return '–' if a == 0 else '∞'
    return '%.2f×' % (a / b)

# The DASH copies made by bench/peers.sh keep the ladder's order: representations 0–2 are v0–v2 (video), 3 is audio.
DASH_VIDEO_SEGMENT = re.compile(r'/chunk-stream([0-2])-(\d+)\.m4s$')

def variant_of(path):
    m = re.search(r'/(v\d)/', path) or re.search(r'/(?:chunk|init)-stream([0-2])\b', path)
    if m:
        return m.group(1) if m.group(1).startswith('v') else 'v' + m.group(1)
    return 'mp4' if path.endswith('.mp4') else None

def segments(row):
    return [l for l in sorted(row.get('log', []), key=lambda l: l['t0'])
            if re.search(r'/v\d/seg_\d+\.ts$', l['path']) or DASH_VIDEO_SEGMENT.search(l['path'])]

def main_variant(row):
    segs = segments(row)[-5:]
    if not segs:
        return None
    cnt = {}
    for l in segs:
        v = variant_of(l['path']); cnt[v] = cnt.get(v, 0) + 1
    return max(sorted(cnt), key=cnt.get)

def switches(row):
    vs = [variant_of(l['path']) for l in segments(row)]
    return sum(1 for a, b in zip(vs, vs[1:]) if a != b)

def first_request(row):
    media = [l['t0'] for l in row.get('log', []) if l['path'].startswith('/media/')]
    return min(media) if media else None

def post_seek_stall_ms(row):
    """Stall time after the first frame at the seek target (None when there was no seek frame).
    bench.py drops the browsers' stalls in seek runs altogether, so they are recomputed here from the page's own
    `waiting`/`playing` events; for process peers (Cove) bench.py's first-occurrence marks tell whether the stalls
    came after the seek frame."""
    page = row.get('page')
    if page:
        sf = page.get('seek_first_frame')
        if sf is None:
            return None
        ev = page.get('events', [])
        waits = [e['t'] for e in ev if e['e'] == 'waiting' and e['t'] > sf]
        plays = [e['t'] for e in ev if e['e'] == 'playing']
        end = page.get('t_stop', sf)
        return round(sum(max(0, min([p for p in plays if p >= w] or [end]) - w) for w in waits))
    marks = row.get('marks', {})
    if 'seek_frame' not in marks:
        return None
    if not row.get('rebuf_count'):
        return 0
    if marks.get('rebuf_start', 0) >= marks['seek_frame']:
        return row.get('rebuf_ms')                     # every stall came after the seek frame
    if row.get('rebuf_count') == 1 and marks.get('rebuf_end', float('inf')) <= marks['seek_frame']:
        return 0                                       # the only stall was over before the seek frame
    return None

def seek_settled_ms(row):
    s, st = row.get('seek_ms'), post_seek_stall_ms(row)
    return None if s is None or st is None else s + st

def mode(xs):
    xs = [x for x in xs if x]
    return max(sorted(set(xs)), key=xs.count) if xs else None


# ------------------------------------------------------------------------------------------------ loading

def load(results_dir, warmup):
    """rows[scenario][peer] -> list of measured rows (warm-up reps dropped); also all rows for counts."""
    rows, dropped = {}, {}
    for fn in sorted(os.listdir(results_dir)):
        if not fn.endswith('.jsonl') or fn == 'meta.jsonl':
            continue
        with open(os.path.join(results_dir, fn)) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                tag = r.get('tag') or fn[:-6]
                m = re.match(r'^(.*):r(\d+)$', tag)     # step-down runs: one bench.py call per (rep, peer)
                if m:
                    tag, r['rep'] = m.group(1), int(m.group(2))
                r['scenario'] = tag
                if r.get('rep', 0) < warmup:
                    dropped.setdefault(tag, 0); dropped[tag] += 1
                    continue
                rows.setdefault(tag, {}).setdefault(r['peer'], []).append(r)
    meta = {}
    mp = os.path.join(results_dir, 'meta.jsonl')
    if os.path.exists(mp):
        for line in open(mp):
            try:
                d = json.loads(line)
            except ValueError:
                continue
            meta.setdefault(d['scenario'], {}).update(d)
    floors = {}
    for fn in os.listdir(results_dir):
        m = re.match(r'^floor-(.+)\.json$', fn)
        if m:
            try:
                floors[m.group(1)] = json.load(open(os.path.join(results_dir, fn)))
            except ValueError:
                pass
    tc = []
    tp = os.path.join(results_dir, 'stepdown-tc.log')
    if os.path.exists(tp):
        for line in open(tp):
            p = line.split()
            if len(p) >= 4:
                tc.append({'t': float(p[0]), 'tag': p[1], 'peer': p[2], 'rate': p[3]})
    return rows, dropped, meta, floors, tc



# Declared BANDWIDTH of the bench ladder's variants (the harness's gen.sh writes these master playlists).
LADDER_BPS = {'v0': 510400, 'v1': 1390400, 'v2': 3370400}
SEGMENT_S = 2

def seg_index(path):
    """0-based segment index: HLS `seg_007.ts` → 7, DASH `chunk-stream2-00008.m4s` ($Number$ from 1) → 7."""
    m = re.search(r'seg_(\d+)', path)
    if m:
        return int(m.group(1))
    m = DASH_VIDEO_SEGMENT.search(path)
    return int(m.group(2)) - 1 if m else None

def complete(l):
    return not l.get('aborted') and l.get('bytes') == l.get('length')

def played_kbps(row, seconds=None):
    """Time-weighted declared bitrate (kbit/s) of the first `seconds` of media played (default: the run's stop, at
    most 10 s): each 2 s slot at the variant of the last complete download of its segment (a segment fetched again
    from another variant after an abandoned download plays from the second)."""
    seconds = min(seconds or row.get('stop') or 10, 10)
    last = {}
    for l in segments(row):
        i = seg_index(l['path'])
        if i is not None and complete(l) and variant_of(l['path']) in LADDER_BPS:
            last[i] = variant_of(l['path'])
    total, weight = 0.0, 0.0
    i = 0
    while i * SEGMENT_S < seconds:
        w = min(SEGMENT_S, seconds - i * SEGMENT_S)
        if i not in last:
            return None
        total += LADDER_BPS[last[i]] * w; weight += w
        i += 1
    return round(total / weight / 1000) if weight else None

def second_segment_variant(row):
    for l in segments(row):
        if seg_index(l['path']) == 1 and complete(l):
            return variant_of(l['path'])
    return None

def old_variant_segments_after_drop(row, t_drop):
    """Segments completed after the link dropped at the variant playing before it (at most one = the down-switch
    came within one segment)."""
    before = [l for l in segments(row) if complete(l) and l['t1'] <= t_drop]
    if not before:
        return None
    old = variant_of(before[-1]['path'])
    return sum(1 for l in segments(row) if complete(l) and l['t1'] > t_drop and variant_of(l['path']) == old
               and LADDER_BPS.get(old, 0) > min(LADDER_BPS.values()))

# ------------------------------------------------------------------------------------------------ targets

DERIVED = {'post_seek_stall_ms': post_seek_stall_ms, 'seek_settled_ms': seek_settled_ms, 'played_kbps': played_kbps}

def metric_values(rows, peer, key):
    get = DERIVED.get(key) or (lambda r: r.get(key))
    return [get(r) for r in rows.get(peer, []) if r.get('t_first_frame')]

def stat(rows, peer, key):
    vs = [v for v in metric_values(rows, peer, key) if v is not None]
    lo, hi = lohi(vs)
    return {'med': med(vs), 'lo': lo, 'hi': hi, 'n': len(vs)}

def cove_cell(s, unit):
    if s['med'] is None:
        return 'no data'
    return '**%s** (%s–%s)' % (fmt_num(s['med'], unit), fmt_num(s['lo'], unit), fmt_num(s['hi'], unit))

def peer_cell(rows, peer, key, unit, cove_med):
    s = stat(rows, peer, key)
    if s['med'] is None:
        return '–'
    return '%s → %s' % (fmt_num(s['med'], unit), fmt_ratio(cove_med, s['med']))

def verdict(ok):
    return 'no data' if ok is None else ('**met**' if ok else '**not met**')

def target_rows(all_rows, floors, covebench_text):
    """One summary row per issue-4 target: (scenario, what, unit, cove cell, peer cells, target text, verdict)."""
    out = []

    def row(scn, what, key, unit, target_text, ok, judged=True):
        rows = all_rows.get(scn, {})
        cs = stat(rows, 'cove', key)
        cells = [peer_cell(rows, p, key, unit, cs['med']) for p in PEERS[1:]]
        out.append((scn, what, cove_cell(cs, unit), cells, target_text, verdict(ok) if judged else '–', None))

    def m(scn, peer, key):
        return stat(all_rows.get(scn, {}), peer, key)['med']

    # Startup P0: <= fastest ABR peer, <= 0.6x playbin3
    scn = 'startup-p0'
    if scn in all_rows:
        c = m(scn, 'cove', 'ttff_net_ms')
        peers = [(m(scn, p, 'ttff_net_ms'), p) for p in PEERS[1:] if m(scn, p, 'ttff_net_ms') is not None]
        best = min(peers) if peers else (None, None)
        row(scn, 'TTFF net ms, loopback', 'ttff_net_ms', 'ms',
            '≤ 1.0× fastest ABR peer (%s, %s ms)' % (PEER_NAMES.get(best[1], '–'), fmt_num(best[0], 'ms')),
            None if c is None or best[0] is None else c <= best[0])
        pb = m(scn, 'gst-playbin3', 'ttff_net_ms')
        row(scn, 'TTFF net ms, loopback', 'ttff_net_ms', 'ms', '≤ 0.60× gst-playbin3',
            None if c is None or pb is None else c <= 0.6 * pb)
        # Cold start (issue 32): exec → first frame, the whole process as a person running `cove play` pays it,
        # while TTFF net keeps its lead over Chromium native.
        ct = m(scn, 'cove', 'ttff_total_ms')
        pt = m(scn, 'gst-playbin3', 'ttff_total_ms')
        nat = m(scn, 'native', 'ttff_net_ms')
        row(scn, 'exec → first frame ms (ttff_total), loopback', 'ttff_total_ms', 'ms',
            '≤ 0.60× gst-playbin3, with TTFF net ≤ 0.30× Chromium native (%s ms)' % fmt_num(nat, 'ms'),
            None if ct is None or pt is None or c is None or nat is None else (ct <= 0.6 * pt and c <= 0.3 * nat))

    # Startup P1: <= 1.2x whole-segment floor
    scn = 'startup-p1'
    if scn in all_rows:
        c = m(scn, 'cove', 'ttff_net_ms')
        fl = (floors.get(scn) or {}).get('startup_floor_ms', {}).get('med')
        row(scn, 'TTFF net ms, 4 Mbit/s/conn + 40 ms', 'ttff_net_ms', 'ms',
            '≤ 1.20× whole-segment floor (%s ms → Cove %s)' % (fmt_num(fl, 'ms'), fmt_ratio(c, fl)),
            None if c is None or fl is None else c <= 1.2 * fl)

    # Teaser: bytes <= 1.0x native and <= 0.15x hls.js; 0 stalls at 6 Mbit/s
    scn = 'teaser-p0'
    if scn in all_rows:
        c = m(scn, 'cove', 'bytes_total')
        nat, hj = m(scn, 'native', 'bytes_total'), m(scn, 'hlsjs', 'bytes_total')
        row(scn, 'MB fetched, 5 s teaser, loopback', 'bytes_total', 'MB', '≤ 1.0× Chromium native',
            None if c is None or nat is None else c <= nat)
        row(scn, 'MB fetched, 5 s teaser, loopback', 'bytes_total', 'MB', '≤ 0.15× hls.js defaults',
            None if c is None or hj is None else c <= 0.15 * hj)
    scn = 'teaser-p2'
    if scn in all_rows:
        # At 6 Mbit/s nobody can fetch much more than ~4 MB in the ~5.5 s a teaser lasts, so the byte targets are
        # judged on loopback (where the buffer policy, not the link, sets the amount); here they are only reported.
        row(scn, 'MB fetched, 5 s teaser, 6 Mbit/s', 'bytes_total', 'MB', 'reported (link-bound: 6 Mbit/s × ~5.5 s ≈ 4.1 MB)',
            None, judged=False)
        rows = all_rows[scn]
        cr = [r for r in rows.get('cove', []) if r.get('t_first_frame')]
        total = sum(r.get('rebuf_count') or 0 for r in cr)
        cells = []
        for p in PEERS[1:]:
            pr = [r for r in rows.get(p, []) if r.get('t_first_frame')]
            cells.append('%d in %d runs' % (sum(r.get('rebuf_count') or 0 for r in pr), len(pr)) if pr else '–')
        out.append((scn, 'stalls, 5 s teaser, 6 Mbit/s', '**%d** in %d runs' % (total, len(cr)) if cr else 'no data',
                    cells, '0 stalls', verdict(None if not cr else total == 0), None))

    # Seek at 6 Mbit/s: <= 0.5x hls.js
    scn = 'seek-p2'
    if scn in all_rows:
        c, hj = m(scn, 'cove', 'seek_ms'), m(scn, 'hlsjs', 'seek_ms')
        row(scn, 'seek → frame at target ms, 6 Mbit/s', 'seek_ms', 'ms', '≤ 0.50× hls.js',
            None if c is None or hj is None else c <= 0.5 * hj)
        row(scn, 'seek → frame + stalls after it ms, 6 Mbit/s', 'seek_settled_ms', 'ms', 'reported', None, judged=False)

    # Step-down: rebuffer time <= best peer's; stall count reported
    scn = 'stepdown-p4'
    if scn in all_rows:
        rows = all_rows[scn]
        c = m(scn, 'cove', 'rebuf_ms')
        peers = [(m(scn, p, 'rebuf_ms'), p) for p in PEERS[1:] if m(scn, p, 'rebuf_ms') is not None]
        best = min(peers) if peers else (None, None)
        row(scn, 'rebuffer ms, 6 → 0.8 → 6 Mbit/s', 'rebuf_ms', 'ms',
            '≤ best peer (%s, %s ms)' % (PEER_NAMES.get(best[1], '–'), fmt_num(best[0], 'ms')),
            None if c is None or best[0] is None else c <= best[0])
        cells = []
        for p in PEERS[1:]:
            pr = [r for r in rows.get(p, []) if r.get('t_first_frame')]
            cells.append('%s (%d in %d runs)' % (fmt_num(med([r.get('rebuf_count') for r in pr]), ''),
                                                 sum(r.get('rebuf_count') or 0 for r in pr), len(pr)) if pr else '–')
        cr = [r for r in rows.get('cove', []) if r.get('t_first_frame')]
        cc = ('**%s** (%d in %d runs)' % (fmt_num(med([r.get('rebuf_count') for r in cr]), ''),
                                          sum(r.get('rebuf_count') or 0 for r in cr), len(cr))) if cr else 'no data'
        out.append((scn, 'stall count (median; total)', cc, cells, 'reported', '–', None))

    # Playlist transition: from cove-bench
    # the first data row of a table under a cove-bench heading about the transition / preloading (or any row naming it)
    line, heading, seen_header = None, '', False
    for l in (covebench_text or '').splitlines():
        if l.startswith('#'):
            heading, seen_header = l, False
            continue
        if not l.startswith('|'):
            seen_header = False if not l.strip() else seen_header
            continue
        if re.match(r'^\|\s*:?-', l):
            seen_header = True
            continue
        if seen_header and (re.search(r'transition|preload', heading, re.I) or re.search(r'transition|preload|gap', l, re.I)):
            line = l; break
    if line:
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        out.append(('cove-bench', 'playlist transition with preloading: %s (cove-bench, ms)' % cells[0],
                    '**%s**' % cells[1] if len(cells) > 1 else '–', ['–'] * 4, '≤ 100 ms',
                    ('**%s**' % cells[-1]) if cells[-1] in ('met', 'not met') else (cells[-1] or '–'), None))
    else:
        out.append(('cove-bench', 'playlist transition with preloading: last frame → next first frame',
                    'see the cove-bench section (not measured yet)', ['–'] * 4, '≤ 100 ms', 'pending', None))
    return out



def streaming_target_rows(all_rows, tc, meta):
    """Issue 14's targets (Cove's own streaming), judged from the same runs: (scenario, what, Cove, target, verdict)."""
    out = []

    def m(scn, peer, key):
        return stat(all_rows.get(scn, {}), peer, key)['med']

    def judged(c, ref, ok):
        return verdict(None if c is None or ref is None else ok)

    scn = 'startup-p0'
    if scn in all_rows:
        cove = [r for r in all_rows[scn].get('cove', []) if r.get('t_first_frame')]
        seconds = [second_segment_variant(r) for r in cove]
        top = max(LADDER_BPS, key=LADDER_BPS.get)
        out.append((scn, 'variant of the second segment, loopback', '**%s**' % ', '.join(str(v) for v in seconds) if seconds else 'no data',
                    'the top variant (%s)' % top, verdict(None if not seconds else all(v == top for v in seconds))))
        c, nat = m(scn, 'cove', 'played_kbps'), m(scn, 'native', 'played_kbps')
        out.append((scn, 'time-weighted kbit/s of the first 10 s played', '**%s** (Chromium native %s → %s)' % (fmt_num(c, ''), fmt_num(nat, ''), fmt_ratio(c, nat)),
                    '≥ 0.95× Chromium native', judged(c, nat, c is not None and nat is not None and c >= 0.95 * nat)))
        c, nat = m(scn, 'cove', 'ttff_net_ms'), m(scn, 'native', 'ttff_net_ms')
        out.append((scn, 'TTFF net ms', '**%s** (Chromium native %s → %s)' % (fmt_num(c, 'ms'), fmt_num(nat, 'ms'), fmt_ratio(c, nat)),
                    '≤ 1.0× Chromium native', judged(c, nat, c is not None and nat is not None and c <= nat)))
    # CPU and peak RSS: the target is for 20 s of playback (play20-p0); a run without it judges startup-p0's 10 s.
    cost_scn = 'play20-p0' if 'play20-p0' in all_rows else scn
    if cost_scn in all_rows:
        played = '20 s' if cost_scn == 'play20-p0' else '10 s'
        cove_cost = [r for r in all_rows[cost_scn].get('cove', []) if r.get('t_first_frame')]
        for key, label in (('cpu_s', 'CPU s'), ('peak_rss_mib', 'peak RSS MiB')):
            cv = med([r['cost'].get(key) for r in cove_cost if r.get('cost')])
            pv = med([r['cost'].get(key) for r in all_rows[cost_scn].get('gst-playbin3', []) if r.get('cost') and r.get('t_first_frame')])
            out.append((cost_scn, '%s, %s played' % (label, played), '**%s** (raw playbin3 %s → %s)' % (fmt_g(cv), fmt_g(pv), fmt_ratio(cv, pv)),
                        '≤ 1.10× raw playbin3', judged(cv, pv, cv is not None and pv is not None and cv <= 1.1 * pv)))
    scn = 'teaser-p0'
    if scn in all_rows:
        c, nat = m(scn, 'cove', 'ahead_s_at_stop'), m(scn, 'native', 'ahead_s_at_stop')
        out.append((scn, 'media s held beyond the playhead at abandonment (5 s)', '**%s** (Chromium native %s → %s)' % (fmt_g(c), fmt_g(nat), fmt_ratio(c, nat)),
                    '≤ 0.5× Chromium native', judged(c, nat, c is not None and nat is not None and c <= 0.5 * nat)))
        c, nat = m(scn, 'cove', 'played_kbps'), m(scn, 'native', 'played_kbps')
        out.append((scn, 'time-weighted kbit/s of the 5 s played', '**%s** (Chromium native %s → %s)' % (fmt_num(c, ''), fmt_num(nat, ''), fmt_ratio(c, nat)),
                    'same or better than Chromium native', judged(c, nat, c is not None and nat is not None and c >= nat)))
    scn = 'seek-p2'
    if scn in all_rows:
        c, hj = m(scn, 'cove', 'seek_ms'), m(scn, 'hlsjs', 'seek_ms')
        stalls = [post_seek_stall_ms(r) for r in all_rows[scn].get('cove', []) if r.get('t_first_frame')]
        out.append((scn, 'seek → frame at target ms, 6 Mbit/s; stall ms after it', '**%s** (hls.js %s → %s); stalls after: %s' % (
                        fmt_num(c, 'ms'), fmt_num(hj, 'ms'), fmt_ratio(c, hj), ', '.join(str(x) for x in stalls)),
                    '≤ 0.5× hls.js, no stall after', judged(c, hj, c is not None and hj is not None and c <= 0.5 * hj and all(x == 0 for x in stalls))))
    scn = 'stepdown-p4'
    if scn in all_rows:
        cove = [r for r in all_rows[scn].get('cove', []) if r.get('t_first_frame')]
        low = meta.get(scn, {}).get('rate_low', '800kbit')
        rebuf = [r.get('rebuf_ms') or 0 for r in cove]
        olds = []
        for r in cove:
            drop = [e['t'] for e in tc if e['tag'] == '%s:r%d' % (scn, r.get('rep', -1)) and e['peer'] == 'cove' and e['rate'] == low]
            olds.append(old_variant_segments_after_drop(r, drop[0]) if drop else None)
        out.append((scn, 'rebuffer ms; segments completed at the old variant after the drop',
                    '**%s**; %s' % (', '.join(str(x) for x in rebuf) or 'no data', ', '.join(str(x) for x in olds) or 'no data'),
                    '0 rebuffering, down-switch within one segment',
                    verdict(None if not cove or None in olds else all(x == 0 for x in rebuf) and all(x <= 1 for x in olds))))
    return out

def dash_target_rows(all_rows, covebench_text):
    """Issue 16's DASH targets from the DASH scenarios (the harness's own streams remuxed to DASH by bench/peers.sh):
    (scenario, what, Cove, target, verdict)."""
    out = []

    def m(scn, peer, key):
        return stat(all_rows.get(scn, {}), peer, key)['med']

    def others(scn, key, unit):
        cells = []
        for p in sorted(set(all_rows[scn]) - {'cove', 'gst-playbin3'}):
            runs = all_rows[scn][p]
            ok = [r for r in runs if r.get('t_first_frame')]
            if ok:
                cells.append('%s %s → %s' % (PEER_NAMES.get(p, p), fmt_num(m(scn, p, key), unit), fmt_ratio(m(scn, 'cove', key), m(scn, p, key))))
            else:
                why = DASH_FAILS.get(p, 'see the scenario\'s notes')
                cells.append('%s: no first frame in %d runs (%s)' % (PEER_NAMES.get(p, p), len(runs), why))
        return ('; ' + '; '.join(cells)) if cells else ''

    scn = 'startup-dash-p0'
    if scn in all_rows:
        c, pb = m(scn, 'cove', 'ttff_net_ms'), m(scn, 'gst-playbin3', 'ttff_net_ms')
        out.append((scn, 'DASH TTFF net ms, loopback', '**%s** (gst-playbin3 + dashdemux2 %s → %s)%s' % (
            fmt_num(c, 'ms'), fmt_num(pb, 'ms'), fmt_ratio(c, pb), others(scn, 'ttff_net_ms', 'ms')),
            '≤ 0.60× gst-playbin3', verdict(None if c is None or pb is None else c <= 0.6 * pb)))
    scn = 'seek-dash-p2'
    if scn in all_rows:
        c = m(scn, 'cove', 'seek_ms')
        out.append((scn, 'DASH seek → frame at target ms, 6 Mbit/s', '**%s**%s' % (fmt_num(c, 'ms'), others(scn, 'seek_ms', 'ms')),
                    'reported (bench.py drives no seek for gst-launch; playbin3 + dashdemux2 seeks are timed by cove-bench, below)', '–'))
    for l in (covebench_text or '').splitlines():
        if l.startswith('|') and re.search(r'DASH seek', l):
            cells = [x.strip() for x in l.strip().strip('|').split('|')]
            if len(cells) >= 4:
                out.append(('cove-bench', 'DASH seek → first frame at target, in-process, loopback (ms)',
                            '**%s** (playbin3 + dashdemux2 %s → %s)' % (cells[1], cells[2], cells[3].strip('*')), 'reported', '–'))
            break
    return out

# Why a peer cannot play the DASH copies at all (shown instead of numbers when it never reached a first frame).
DASH_FAILS = {
    'vhs': 'the harness\'s vhs.html gives video.js every source as type application/x-mpegURL, so VHS reads the MPD as an '
           'HLS playlist with no segments: it fetched the MPD again and again and never asked for a segment; the page is the '
           'shared harness\'s, not ours to change',
    'hlsjs': 'hls.js plays HLS only', 'native': 'Chromium has no native DASH',
}


# ------------------------------------------------------------------------------------------------- report

def describe(meta, rows):
    any_row = next((r for pr in rows.values() for r in pr), {})
    parts = ['stream %s' % any_row.get('stream', '?'), 'stop %s s after the first frame' % fmt_g(any_row.get('stop'))]
    if meta.get('shaping'):
        parts.append(meta['shaping'])
    if any_row.get('rate_kbps'):
        parts.append('server pacing %s kbit/s per connection' % fmt_g(any_row['rate_kbps']))
    if any_row.get('delay_ms'):
        parts.append('+%s ms before each response' % fmt_g(any_row['delay_ms']))
    if meta.get('extra'):
        parts.append('`--extra %s`' % meta['extra'])
    return ', '.join(parts)

def fmt_g(x):
    if x is None:
        return '?'
    return ('%g' % x)

def detail_table(scn, rows, meta, floors, tc):
    L = []
    key = {'startup-p0': 'ttff_net_ms', 'startup-p1': 'ttff_net_ms', 'teaser-p0': 'bytes_total',
           'teaser-p2': 'bytes_total', 'stepdown-p4': 'rebuf_ms'}.get(scn, 'seek_ms' if scn.startswith('seek') else 'ttff_net_ms')
    unit = 'MB' if key == 'bytes_total' else 'ms'
    cmed = stat(rows, 'cove', key)['med']
    L.append('| peer | ok/runs | TTFF net ms (min–max) | TTFF from play() ms | init ms | MB fetched (min–max) | '
             'MB by +5 s | ahead s at stop | first → main variant, switches | stalls: runs with any / runs (total) | rebuffer ms (max) | '
             'seek ms (min–max) | CPU s | peak RSS MiB | Cove/peer (%s) |' % {'ttff_net_ms': 'TTFF net', 'bytes_total': 'MB',
                                                                    'seek_ms': 'seek', 'rebuf_ms': 'rebuffer'}[key])
    L.append('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for p in PEERS + sorted(set(rows) - set(PEERS)):
        allr = rows.get(p)
        if not allr:
            continue
        ok = [r for r in allr if r.get('t_first_frame')]
        def ms(k):
            s = stat(rows, p, k)
            return '–' if s['med'] is None else '%s (%s–%s)' % (fmt_num(s['med'], 'ms'), fmt_num(s['lo'], 'ms'), fmt_num(s['hi'], 'ms'))
        b = stat(rows, p, 'bytes_total')
        stalled = sum(1 for r in ok if (r.get('rebuf_count') or 0) > 0)
        rb = [r.get('rebuf_ms') for r in ok]
        stalls = ('%d/%d (%d)' % (stalled, len(ok), sum(r.get('rebuf_count') or 0 for r in ok))) if ok else '–'
        rebuf = ('%s (%s)' % (fmt_num(med(rb), 'ms'), fmt_num(lohi(rb)[1], 'ms'))) if ok else '–'
        fv = mode([r.get('first_seg_variant') for r in ok]); mv = mode([main_variant(r) for r in ok])
        sw = med([switches(r) for r in ok])
        seek = ms('seek_ms') if scn.startswith('seek') else '–'
        if scn.startswith('seek') and seek != '–':
            ps = [x for x in metric_values(rows, p, 'post_seek_stall_ms') if x is not None]
            seek += '; then stalled in %d/%d, %s ms²' % (sum(1 for x in ps if x > 0), len(ps), fmt_num(med(ps), 'ms'))
        if scn.startswith('seek') and p == 'gst-playbin3':
            seek = 'n/a¹'
        name = '**Cove**' if p == 'cove' else PEER_NAMES.get(p, p)
        ratio = '–' if p == 'cove' else fmt_ratio(cmed, stat(rows, p, key)['med'])
        L.append('| %s | %d/%d | %s | %s | %s | %s | %s | %s | %s → %s, %s | %s | %s | %s | %s | %s | %s |' % (
            name, len(ok), len(allr), ms('ttff_net_ms'), fmt_num(med(metric_values(rows, p, 'ttff_intent_ms')), 'ms'),
            fmt_num(med(metric_values(rows, p, 'init_ms')), 'ms'),
            '–' if b['med'] is None else '%s (%s–%s)' % (fmt_num(b['med'], 'MB'), fmt_num(b['lo'], 'MB'), fmt_num(b['hi'], 'MB')),
            fmt_num(med(metric_values(rows, p, 'bytes_by_ff+5s')), 'MB'),
            fmt_num(med(metric_values(rows, p, 'ahead_s_at_stop')), 's') if not scn.startswith('seek') else '–',
            fv or '–', mv or '–', fmt_num(sw, '') if sw is not None else '–', stalls, rebuf, seek,
            '%.2f' % med([r['cost']['cpu_s'] for r in ok]) if ok else '–',
            fmt_num(med([r['cost']['peak_rss_mib'] for r in ok]), '') if ok else '–', ratio))
    notes = []
    fails = [(p, r) for p in rows for r in rows[p] if not r.get('t_first_frame')]
    if fails:
        notes.append('Runs without a first frame (left out of the medians): ' + '; '.join(
            '%s rep %s (%s)' % (PEER_NAMES.get(p, p), r.get('rep'), ' / '.join(t[:80] for t in (r.get('tail') or [])[-2:]) or
                                (r.get('page') or {}).get('bad') or 'no output') for p, r in fails) + '.')
    fl = floors.get(scn)
    if fl:
        sf = fl.get('startup_floor_ms', {})
        notes.append('Whole-segment floor in this run (%s, median of %d raw GETs on one keep-alive connection against the same '
                     'server.py%s): master %s + %s playlist %s + first %s segment %s = **%s ms** (min–max %s–%s), from the '
                     'first request to the segment\'s last byte; first-frame decode (~1.5 ms at 240p) not included.' % (
                         fl.get('where', ''), fl.get('reps', 0), ', same pacing' if fl.get('rate_kbps') or fl.get('delay_ms') else '',
                         fmt_num(fl['components_ms'].get('master'), 'ms'), fl.get('variant'), fmt_num(fl['components_ms'].get('playlist'), 'ms'),
                         fl.get('variant'), fmt_num(fl['components_ms'].get('segment'), 'ms'),
                         fmt_num(sf.get('med'), 'ms'), fmt_num(sf.get('lo'), 'ms'), fmt_num(sf.get('hi'), 'ms')))
        if fl.get('seek_ms'):
            notes.append('One segment at the seek target (%s) on a warm connection: %s.' % (
                fl.get('seek_segment'), ', '.join('%s %s ms' % (v, fmt_num(x, 'ms')) for v, x in sorted(fl['seek_ms'].items()))))
    if scn in ('startup-p1',):
        sl = [r.get('first_seg_done_ms') for p in rows for r in rows[p] if r.get('first_seg_variant') == 'v0']
        if sl:
            notes.append('Cross-check from the server logs of the player runs: first request → first 240p segment completed, '
                         'median %s ms over %d runs of all peers (includes each player\'s own gaps between requests).' % (
                             fmt_num(med(sl), 'ms'), len(sl)))
    if scn.startswith('seek'):
        during = [r for r in rows.get('cove', []) if 'seek_issued' in r.get('marks', {}) and 'seek_frame' in r['marks']
                  and r['marks']['seek_issued'] <= r['marks'].get('rebuf_start', -1) < r['marks']['seek_frame']]
        if during:
            notes.append('Cove reported a stall (`stallBegin`/`stallEnd`) between the seek and its first frame in %d of %d runs '
                         '(counted in the stalls columns, not in "then stalled").' % (len(during), len(rows.get('cove', []))))
        notes.append('¹ gst-launch cannot seek (bench.py does not drive a seek for it). The stalls columns come from bench.py, '
                     'which ignores the browsers\' `waiting` events once a seek was issued; Cove\'s include stalls after the seek. '
                     '² so the seek column adds, the same way for every peer, how many runs stalled after the first frame at the '
                     'target and the median stall time (browsers: their page events `waiting`→`playing`; Cove: `stallBegin`→`stallEnd`). '
                     '"seek → frame + stalls after it" in the targets table is the sum per run.')
    if scn == 'stepdown-p4' and tc:
        low = meta.get('rate_low', '800kbit')
        offs, offf = {}, {}
        for p in rows:
            for r in rows[p]:
                drop = [e['t'] for e in tc if e['tag'] == '%s:r%d' % (scn, r.get('rep', -1)) and e['peer'] == p and e['rate'] == low]
                fr = first_request(r)
                if drop and fr:
                    offs.setdefault(p, []).append(drop[0] - fr)
                if drop and r.get('t_first_frame'):
                    offf.setdefault(p, []).append(drop[0] - r['t_first_frame'])
        if offs:
            order = [p for p in PEERS if p in offs] + sorted(set(offs) - set(PEERS))
            notes.append('The drop to %s came (median) %s s after the run\'s first media request, i.e. %s s after its first frame.' % (
                low, ', '.join('%s %.1f' % (PEER_NAMES.get(p, p), med(offs[p])) for p in order),
                ', '.join('%s %.1f' % (PEER_NAMES.get(p, p), med(offf[p])) for p in order if p in offf)))
    return L, notes

def report(a):
    rows, dropped, meta, floors, tc = load(a.results, a.warmup)
    cb = ''
    if a.cove_bench and os.path.exists(a.cove_bench):
        raw = open(a.cove_bench).read()
        cb = section(raw, 'cove-bench') or cove_bench_body(raw)   # only cove-bench's own part, never our summary
    out = []
    out.append('## Cove against its peers (issue #4)')
    out.append('')
    reps = sorted({len(v) for s in rows.values() for v in s.values()})
    started = [m.get('t_start') for m in meta.values() if m.get('t_start')]
    ended = [m.get('t_end') for m in meta.values() if m.get('t_end')]
    la = [r.get('loadavg') for s in rows.values() for pr in s.values() for r in pr if r.get('loadavg') is not None]
    out.append('One run of `bench/peers.sh` through the shared harness `../shared/tools/peer-bench/run.sh` (bench.py, server.py, '
               'same generated streams, a fresh server per run, peers interleaved within each repetition). '
               '%s measured repetitions per peer and scenario; the first %d repetition(s) of every scenario ran as warm-up and are '
               'left out (%d runs dropped). Medians, min–max in brackets; "→ 0.87×" is the ratio Cove/peer of the medians '
               '(lower is better). Absolute numbers move with the load of this shared 2-core machine; the ratios come from one run.' % (
                   '/'.join(str(x) for x in reps) or '0', a.warmup, sum(dropped.values())))
    if started and ended:
        out.append('Run %s → %s (%.0f min)%s; 1-min load average at the end of each run: %s–%s (median %s).' % (
            time.strftime('%Y-%m-%d %H:%M', time.localtime(min(started))), time.strftime('%H:%M', time.localtime(max(ended))),
            (max(ended) - min(started)) / 60, '', '%.2f' % min(la) if la else '?', '%.2f' % max(la) if la else '?',
            '%.2f' % med(la) if la else '?'))
    out.append('')
    out.append('### Targets')
    out.append('')
    out.append('| scenario | metric | Cove median (min–max) | gst-playbin3 → Cove/peer | hls.js → Cove/peer | VHS → Cove/peer | '
               'Chromium native → Cove/peer | target | |')
    out.append('|---|---|---|---|---|---|---|---|---|')
    for scn, what, cc, cells, tt, vd, _ in target_rows(rows, floors, cb):
        out.append('| %s | %s | %s | %s | %s | %s |' % (scn, what, cc, ' | '.join(cells), tt, vd))
    out.append('')
    streaming = streaming_target_rows(rows, tc, meta)
    if streaming:
        out.append('### Issue 14 targets (Cove\'s own streaming), from the same runs')
        out.append('')
        out.append('| scenario | metric | Cove (runs, or median against the peer) | target | |')
        out.append('|---|---|---|---|---|')
        for scn, what, cc, tt, vd in streaming:
            out.append('| %s | %s | %s | %s | %s |' % (scn, what, cc, tt, vd))
        out.append('')
        out.append('kbit/s played: each 2 s of media at the declared BANDWIDTH of the variant it played from (the last complete '
                   'download of its segment). CPU and RSS: the whole process (bench.py sums the session), 10 s after the first frame.')
    dash = dash_target_rows(rows, cb)
    if dash:
        out.append('')
        out.append('### Issue 16 targets (DASH), from the same run')
        out.append('')
        out.append('| scenario | metric | Cove median (against the peers) | target | |')
        out.append('|---|---|---|---|---|')
        for scn, what, cc, tt, vd in dash:
            out.append('| %s | %s | %s | %s | %s |' % (scn, what, cc, tt, vd))
    out.append('')
    out.append('Units: ms, or MB (10⁶ bytes) for "MB fetched". TTFF net = first media HTTP request → first frame rendered '
               '(Cove: `firstFrame` from `cove probe --trace`; gst-playbin3: first fakesink `chain` in PLAYING; browsers: first '
               '`requestVideoFrameCallback`). Seek = seek issued → first frame at the target. Rebuffer = time in stalls after the '
               'first frame (Cove: `stallBegin`→`stallEnd`; playbin3: gst-launch buffering pauses; browsers: `waiting`→`playing`).')
    out.append('')
    out.append('### Scenarios')
    for scn, title in SCENARIOS + [(s, s) for s in sorted(set(rows) - {x for x, _ in SCENARIOS})]:
        if scn not in rows:
            continue
        m = meta.get(scn, {})
        out.append('')
        out.append('#### %s — `%s`' % (title, scn))
        out.append('')
        line = describe(m, rows[scn]) + '.'
        if m.get('t_start') and m.get('t_end'):
            line += ' Took %.1f min; load average before / after: %s / %s.' % ((m['t_end'] - m['t_start']) / 60,
                                                                             m.get('load_before', '?'), m.get('load_after', '?'))
        out.append(line)
        out.append('')
        L, notes = detail_table(scn, rows[scn], m, floors, tc)
        pl = os.path.join(a.results, 'physlimit-loopback.txt')
        if scn == 'startup-p0' and os.path.exists(pl):
            txt = ' '.join(l.strip() for l in open(pl) if l.strip())
            if txt:
                notes.append('The harness\'s own `physlimit.py` in this run (loopback, s120, new connection per rep): %s' % txt)
        out += L
        if notes:
            out.append('')
            out += ['- ' + n for n in notes]
    missing = [s for s, _ in SCENARIOS if s not in rows]
    if missing:
        out.append('')
        out.append('Not run this time: %s.' % ', '.join('`%s`' % s for s in missing))
    out.append('')
    out.append('How each scenario runs (bench/peers.sh): P0 = plain loopback; P1 = server pacing `--rate-kbps 4000 --delay-ms 40`; '
               'P2 = a private network namespace created by the script (loopback MTU 1500, `tc qdisc replace dev lo root tbf rate 6mbit '
               'burst 16kb latency 300ms`) with server and player inside, plus `--delay-ms 20`; P4 = P2, but the qdisc is changed to '
               '`tbf rate 800kbit` 10 s after each single-run bench.py call starts and back to 6mbit 10 s later (the drop lands about 9 s '
               'after the first media request, see the note; one bench.py call per (rep, peer), interleaved like the others). The host '
               'loopback is never shaped. The raw JSONL rows are kept in the results folder printed by peers.sh.')
    text = '\n'.join(out) + '\n'
    if a.out:
        with open(a.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)


# -------------------------------------------------------------------------------------------------- floor

def floor(a):
    sys.path.insert(0, a.bench_dir)
    import server as srv  # the shared server.py, as copied into $PERF_ROOT/bench by run.sh
    root = os.path.dirname(os.path.abspath(a.bench_dir.rstrip('/')))
    s = srv.start(root, 0, a.rate_kbps * 1000 / 8 if a.rate_kbps else 0, a.delay_ms)
    port = s.server_address[1]
    master = open(os.path.join(root, 'media', a.stream, 'master.m3u8')).read()
    uris = [l.strip() for l in master.splitlines() if l.strip() and not l.startswith('#')]
    first, last = uris[0], uris[-1]
    base = '/media/%s/' % a.stream

    def get(conn, path):
        conn.request('GET', path)
        resp = conn.getresponse()
        body = resp.read()
        return len(body)

    rows, seek = [], {}
    try:
        for i in range(a.reps):
            conn = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
            conn.connect()
            conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            t0 = time.time(); get(conn, base + 'master.m3u8')
            t1 = time.time(); get(conn, base + first)
            t2 = time.time(); n = get(conn, base + os.path.dirname(first) + '/seg_000.ts')
            t3 = time.time()
            rows.append(((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t3 - t0) * 1e3, n))
            if a.seek_seg is not None and i < a.seek_reps:
                for u in (first, last):
                    path = base + os.path.dirname(u) + '/seg_%03d.ts' % a.seek_seg
                    ts = time.time(); get(conn, path)
                    seek.setdefault(os.path.dirname(u), []).append((time.time() - ts) * 1e3)
            conn.close()
    finally:
        s.shutdown(); s.server_close()
    tot = [r[3] for r in rows]
    res = {'stream': a.stream, 'rate_kbps': a.rate_kbps, 'delay_ms': a.delay_ms, 'reps': a.reps, 'where': a.where,
           'variant': os.path.dirname(first), 'segment_bytes': rows[0][4] if rows else None,
           'components_ms': {'master': med([r[0] for r in rows]), 'playlist': med([r[1] for r in rows]),
                             'segment': med([r[2] for r in rows])},
           'startup_floor_ms': {'med': med(tot), 'lo': lohi(tot)[0], 'hi': lohi(tot)[1]}}
    if seek:
        res['seek_segment'] = 'seg_%03d' % a.seek_seg
        res['seek_ms'] = {k: med(v) for k, v in seek.items()}
    with open(a.out, 'w') as f:
        json.dump(res, f)
    print('floor %s: %s' % (a.where, json.dumps(res)))


# ----------------------------------------------------------------------------------------------- assemble

def section(text, name):
    b, e = MARKERS[name]
    if b in text and e in text:
        return text[text.index(b) + len(b):text.index(e)].strip('\n')
    return None

def cove_bench_body(text):
    """cove-bench writes a whole document (title + intro + '## ...' sections); keep its sections verbatim."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l.startswith('## '):
            return '\n'.join(lines[i:]).strip('\n')
    return text.strip('\n')

def assemble(a):
    old = open(a.out).read() if os.path.exists(a.out) else ''
    if a.cove_bench:
        cb = cove_bench_body(open(a.cove_bench).read())
    else:
        cb = section(old, 'cove-bench')
        if cb is None and old and '<!--' not in old:     # a file cove-bench wrote directly (before peers.sh existed)
            cb = cove_bench_body(old)
        cb = cb or '## Cove micro-benchmarks (cove-bench)\n\nNot run.'
    pe = open(a.peers).read().strip('\n') if a.peers else section(old, 'peers')
    pe = pe or '## Cove against its peers (issue #4)\n\nNot run.'
    header = a.header or ('# Cove benchmark results\n\nGenerated by `make bench`; numbers are medians from one run on this '
                          'machine, compared as ratios.')
    doc = '%s\n\n%s\n%s\n%s\n\n%s\n%s\n%s\n' % (header.strip('\n'), MARKERS['cove-bench'][0], cb, MARKERS['cove-bench'][1],
                                             MARKERS['peers'][0], pe, MARKERS['peers'][1])
    tmp = a.out + '.tmp'
    with open(tmp, 'w') as f:
        f.write(doc)
    os.replace(tmp, a.out)
    print('wrote', a.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('report')
    r.add_argument('--results', required=True)
    r.add_argument('--warmup', type=int, default=1, help='leading repetitions to drop (bench.py rep < N)')
    r.add_argument('--out')
    r.add_argument('--cove-bench', help='cove-bench output, to pick up the playlist-transition row for the summary')
    f = sub.add_parser('floor')
    f.add_argument('--bench-dir', required=True, help='$PERF_ROOT/bench (media is read from $PERF_ROOT/media)')
    f.add_argument('--stream', default='s120')
    f.add_argument('--rate-kbps', type=float, default=0)
    f.add_argument('--delay-ms', type=float, default=0)
    f.add_argument('--reps', type=int, default=10)
    f.add_argument('--seek-seg', type=int)
    f.add_argument('--seek-reps', type=int, default=3)
    f.add_argument('--where', default='loopback')
    f.add_argument('--out', required=True)
    s = sub.add_parser('assemble')
    s.add_argument('--out', required=True)
    s.add_argument('--cove-bench')
    s.add_argument('--peers')
    s.add_argument('--header')
    a = ap.parse_args()
    {'report': report, 'floor': floor, 'assemble': assemble}[a.cmd](a)

if __name__ == '__main__':
    main()
