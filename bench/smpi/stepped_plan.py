#!/usr/bin/env python3
"""PROTOTYPE (session 26, issue 30), not a library feature: a neighbour-step schedule of an alltoallv demand.

usage: bench/smpi/stepped_plan.py TORUS KIND C [--fw N | --rounds R] [--min-frac F] [--prio P] [--out FILE] [--mean M]

What it measures: whether a near-LP routing of a demand W can be cut into store-and-forward steps of
neighbour messages in which every directed link carries at most C bytes, and what that costs in link time.
W is smpi_alltoallv_bench.c's seeded demand of KIND (uniform, zipf, hotspot, random; mean M bytes a block,
default 65536), alltoallv_linkload.demand_matrix (node id = rank, first dimension fastest).
  1. Routing: Frank-Wolfe (N iterations, default 400) over every shortest path of each block (all orders of
     its moves, both ways round an antipodal ring), the least-cost path of the softmax of the links' loads
     (exp(40 load / max load)) getting 2 / (t + 3) of the block each iteration; the iterate with the least
     busiest link is kept; paths below F of a block (default 0: only FW's own cut, 1e-4) are dropped and the
     rest rounded to bytes.
     alltoallv_linkload.fw_routing's rule (shortest 2-leg routes) is printed beside it.
     --rounds R instead: what ranks could compute from their rows and R allreduces (rounds_routing: every
     block split evenly over its shortest paths, then R Frank-Wolfe rounds with an exact line search).
  2. Steps: greedy list scheduling, step by step: each directed link takes up to C bytes of the pieces waiting
     at its tail whose next hop it is and which came in an earlier step (a piece is split where C ends),
     priority P: "far" (default) the most hops still to go first, then the larger load left on the piece's
     remaining links; "load" the larger load left on the piece's remaining links first; "local" the most
     hops still to go first, ties in the order the pieces came (what the tail node knows from the pieces it
     holds: no global figure).
Printed: the routing's busiest link (link time at 10 GB/s, against the demand's LP when known), the steps,
the schedule's link time (the sum over steps of the busiest link's bytes in the step) and its ratio to the
routing's busiest link. With --out, the schedule per rank for bench/smpi/stepped_proto.c, lines
  steps N S                       (ranks, steps)
  R rank step peer bytes          (a receive of rank from its neighbour peer in step)
  S rank step peer bytes k s1 p1 .. sk pk  (a send; the k receives (step, peer) of that rank it forwards from)
Offline, no MPI, no SimGrid.
"""
import math
import os
import sys
from itertools import permutations

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from alltoallv_linkload import LINK, Torus, bounds, demand_matrix, fw_over, fw_routing  # noqa: E402

LP_US = {("4x4", "random"): 58.13, ("4x4x4", "random"): 219.10, ("4x4", "uniform"): 52.43,
         ("4x4x4", "uniform"): 209.72}


def shortest_moves(T, i, j):
    """every shortest path i -> j as a tuple of moves (dimension, sign)"""
    per_dim = []
    for d in range(T.D):
        k = T.dims[d]
        off = (T.coord(j, d) - T.coord(i, d)) % k
        if off == 0:
            per_dim.append([()])
        elif 2 * off < k:
            per_dim.append([((d, 1),) * off])
        elif 2 * off > k:
            per_dim.append([((d, -1),) * (k - off)])
        else:
            per_dim.append([((d, 1),) * off, ((d, -1),) * off])
    out = set()

    def rec(d, acc):
        if d == T.D:
            for p in set(permutations(acc)):
                out.add(p)
            return
        for ms in per_dim[d]:
            rec(d + 1, acc + ms)

    rec(0, ())
    return sorted(out)


def moves_links(T, i, moves):
    links, cur = [], i
    for d, s in moves:
        links.append(T.link(cur, d, s))
        cur = T.move(cur, d, s)
    return tuple(links)


def shortest_cands(T, W):
    """every block's shortest paths as link lists: {(i, j): [links, ...]}"""
    cands = {}
    for i in range(T.n):
        for j in range(T.n):
            if i != j and W[i][j] > 0:
                cands[(i, j)] = [moves_links(T, i, m) for m in shortest_moves(T, i, j)]
    return cands


def fw_all_shortest(T, W, iters):
    """Frank-Wolfe over every shortest path: (cands, the best iterate's flows, its busiest link's bytes)"""
    cands = shortest_cands(T, W)
    best, best_flow = fw_over(T, W, cands, iters)
    return cands, best_flow, best


def rounds_routing(T, W, rounds, beta=40.0):
    """--rounds R: a routing the ranks can compute without W, each from its own row: every block split evenly over
    its shortest paths, then R rounds of Frank-Wolfe with an exact line search; a round needs the links' loads L
    and the loads L' of every block moved whole to its least-cost path (the softmax of L), summed over ranks (one
    allreduce of 2 x 2Dn numbers), from which every rank takes the same step g (the least busiest link of
    (1 - g) L + g L', g in (0, 1/2], 200 points). Returns (cands, flow, busiest link's bytes) as fw_all_shortest"""
    cands = shortest_cands(T, W)
    flow = {key: {p: 1.0 / len(ps) for p in range(len(ps))} for key, ps in cands.items()}
    load = [0.0] * T.nlinks()
    for (i, j), fr in flow.items():
        for p, f in fr.items():
            for l in cands[(i, j)][p]:
                load[l] += f * W[i][j]
    for _ in range(rounds):
        mx = max(load)
        c = [math.exp(beta * (x - mx) / mx) for x in load]
        target = {key: min(range(len(ps)), key=lambda x: sum(c[l] for l in ps[x])) for key, ps in cands.items()}
        lt = [0.0] * T.nlinks()
        for (i, j), b in target.items():
            for l in cands[(i, j)][b]:
                lt[l] += W[i][j]
        g, best = 0.002, float("inf")
        for k in range(1, 201):
            m = max((1 - k / 400.0) * a + k / 400.0 * b for a, b in zip(load, lt))
            if m < best:
                best, g = m, k / 400.0
        for key, b in target.items():
            fr = flow[key]
            for x in list(fr):
                fr[x] *= 1 - g
            fr[b] = fr.get(b, 0.0) + g
        load = [(1 - g) * a + g * b for a, b in zip(load, lt)]
    return cands, flow, max(load)


def pieces_of(T, W, cands, flow, min_frac):
    """each block's flow in whole bytes over its paths of at least min_frac (renormalised): [(bytes, links)]"""
    out = []
    for (i, j), fr in sorted(flow.items()):
        keep = {p: f for p, f in fr.items() if f >= min_frac}
        if not keep:
            keep = {max(fr, key=fr.get): 1.0}
        tot = sum(keep.values())
        w = W[i][j]
        left = w
        items = sorted(keep.items(), key=lambda x: -x[1])
        for q, (p, f) in enumerate(items):
            b = left if q == len(items) - 1 else int(round(w * f / tot))
            b = min(b, left)
            left -= b
            if b > 0:
                out.append((b, cands[(i, j)][p]))
    return out


def schedule(T, pieces, C, prio):
    """greedy list scheduling of the pieces' hops into steps of at most C bytes a directed link.
    Returns steps: list over steps of {link: [(bytes, arrival (step, link) or None)]} and per step the
    busiest link's bytes."""
    nl = T.nlinks()
    # a waiting fragment: [bytes, links, hop, ready_step, came_from (step, link) or None]
    frags = [[b, links, 0, 0, None] for b, links in pieces]
    total_load = [0] * nl
    for b, links in pieces:
        for l in links:
            total_load[l] += b
    left_load = list(total_load)
    steps = []
    s = 0
    while frags:
        by_link = {}
        for f in frags:
            if f[3] <= s:
                by_link.setdefault(f[1][f[2]], []).append(f)
        step = {}
        moved = []
        keep = [f for f in frags if f[3] > s]
        for l, fs in by_link.items():
            if prio == "local":
                fs.sort(key=lambda f: -(len(f[1]) - f[2]))  # stable: the order the pieces came in
            elif prio == "load":
                fs.sort(key=lambda f: (-sum(left_load[x] for x in f[1][f[2]:]), -(len(f[1]) - f[2])))
            else:
                fs.sort(key=lambda f: (-(len(f[1]) - f[2]), -max(left_load[x] for x in f[1][f[2]:])))
            cap = C
            for f in fs:
                if cap <= 0:
                    keep.append(f)
                    continue
                take = min(cap, f[0])
                cap -= take
                step.setdefault(l, []).append((take, f[4]))
                if take < f[0]:
                    keep.append([f[0] - take, f[1], f[2], f[3], f[4]])
                if f[2] + 1 < len(f[1]):
                    moved.append([take, f[1], f[2] + 1, s + 1, (s, l)])
        for l, xs in step.items():
            left_load[l] -= sum(b for b, _ in xs)
        frags = keep + moved
        steps.append(step)
        s += 1
        if s > 100000:
            raise SystemExit("stepped_plan: no progress")
    busiest = [max(sum(b for b, _ in xs) for xs in st.values()) for st in steps]
    return steps, busiest


def write_schedule(T, steps, path):
    D = T.D
    lines = ["steps %d %d" % (T.n, len(steps))]
    for s, st in enumerate(steps):
        for l in sorted(st):
            xs = st[l]
            u = l // 2 // D
            d = (l // 2) % D
            sgn = 1 if l % 2 else -1
            v = T.move(u, d, sgn)
            b = sum(x for x, _ in xs)
            deps = sorted(set((cs, cl // 2 // D) for _, c in xs if c is not None for cs, cl in [c]))
            lines.append("S %d %d %d %d %d %s" % (u, s, v, b, len(deps), " ".join("%d %d" % x for x in deps)))
            lines.append("R %d %d %d %d" % (v, s, u, b))
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def bad(msg):
    """bad input: one line on stderr, exit 2"""
    sys.stderr.write("stepped_plan.py: %s\n" % msg)
    sys.exit(2)


def positive(text, what, zero_ok=False):
    """@p text as an int > 0 (>= 0 with zero_ok), else bad()"""
    if not text.isdigit() or (int(text) == 0 and not zero_ok):
        bad("%s '%s' is not a whole number %s" % (what, text, "of at least 0" if zero_ok else "above 0"))
    return int(text)


def main(argv):
    opts = {"--fw": "400", "--rounds": None, "--min-frac": "0", "--prio": "far", "--out": None, "--mean": "65536"}
    pos = []
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it, None)
            if opts[a] is None:
                bad("%s needs a value" % a)
        else:
            pos.append(a)
    if len(pos) != 3:
        bad("want TORUS KIND C (" + __doc__.split("\n")[2].strip() + ")")
    tor, kind = pos[0], pos[1]
    if not all(x.isdigit() and int(x) >= 2 for x in tor.split("x")):
        bad("torus '%s' is not sides of at least 2 joined by x (e.g. 4x4x4)" % tor)
    if kind not in ("uniform", "zipf", "hotspot", "random"):
        bad("demand kind '%s' is not uniform, zipf, hotspot or random" % kind)
    if opts["--prio"] not in ("far", "load", "local"):
        bad("--prio '%s' is not far, load or local" % opts["--prio"])
    C = positive(pos[2], "C (bytes a link carries a step)")
    for o in ("--fw", "--mean") + (("--rounds",) if opts["--rounds"] is not None else ()):
        positive(opts[o], o, zero_ok=o == "--rounds")
    try:
        float(opts["--min-frac"])
    except ValueError:
        bad("--min-frac '%s' is not a number" % opts["--min-frac"])
    T = Torus([int(x) for x in tor.split("x")])
    W = demand_matrix(kind, int(opts["--mean"]), T.n)
    us = lambda b: b / LINK * 1e6
    b = bounds(T, W)
    lp = LP_US.get((tor, kind))
    ref = lp if lp else max(b) * 1e6
    if opts["--rounds"] is not None:
        cands, flow, best = rounds_routing(T, W, int(opts["--rounds"]))
        opts["--fw"] = "0 (--rounds %s: even split, line-searched rounds)," % opts["--rounds"]
    else:
        cands, flow, best = fw_all_shortest(T, W, int(opts["--fw"]))
    pieces = pieces_of(T, W, cands, flow, float(opts["--min-frac"]))
    load = [0] * T.nlinks()
    for bb, links in pieces:
        for l in links:
            load[l] += bb
    npaths = len(pieces) / sum(1 for i in range(T.n) for j in range(T.n) if i != j and W[i][j] > 0)
    print("%s %s: bound %.2f us (%s), fw over all shortest paths %s it: busiest %.2f us (%.3f x), "
          "rounded to %.1f paths a block: %.2f us (%.3f x)" % (
              tor, kind, ref, "LP" if lp else "max(inject,cut,hop)", opts["--fw"], us(best), us(best) / ref,
              npaths, us(max(load)), us(max(load)) / ref))
    if os.environ.get("STEPPED_FW2"):
        fw2 = fw_routing(T, W, int(opts["--fw"]))
        print("  (alltoallv_linkload fw over shortest 2-leg routes: %.2f us, %.3f x)" % (us(fw2), us(fw2) / ref))
    steps, busiest = schedule(T, pieces, C, opts["--prio"])
    sched = sum(busiest)
    print("C %d: %d steps, schedule link time %.2f us = %.3f x the routing's busiest link = %.3f x bound; "
          "per step busiest (KB): %s" % (C, len(steps), us(sched), sched / max(load), us(sched) / ref,
                                        " ".join("%.0f" % (x / 1000) for x in busiest)))
    if opts["--out"]:
        write_schedule(T, steps, opts["--out"])


if __name__ == "__main__":
    main(sys.argv[1:])
