#!/usr/bin/env python3
"""Link-load count of alltoallv routing rules on SimGrid's tori (offline, no MPI, no SimGrid).

usage: bench/smpi/alltoallv_linkload.py [TORUS ...] [--kinds K,K] [--mean M] [--pieces Q] [--fw N]

For every torus (default 4x4 8x8 4x4x4) and demand kind (default uniform,zipf,hotspot,random) at mean M
bytes per pair (default 65536), the demand W is smpi_alltoallv_bench.c's seeded generator (seed 1, the same
formulas: zipf's popularity permutation, hotspot's every 8th rank, random's hash), node id = rank with the
first dimension fastest (bench/smpi/platform.sh). Every routing rule splits each block W(i,j) over paths made
of legs between relays; each leg follows SimGrid 3.32's TORUS route (TorusZone::get_local_route: dimension 0
first; in dimension j the + way when the target t is within k/2 ahead of the source's coordinate s, or, for
s > k/2, when t <= (s + k/2) mod k: an offset of k/2 goes + except from s = k/2). A link is directed
(SPLITDUPLEX), 10 GB/s. Printed per rule: the busiest link's bytes in microseconds at 10 GB/s and its ratio
to the bench's bound (the largest of injection, cut and hop-bytes, smpi_alltoallv_bench.c's bounds()).
This is link time alone: no start-ups, no pipeline losses, no fair sharing of a link between streams.

Rules (what a rank must know to compute its part of each):
  direct    one leg (the MPI libraries' linear algorithm; totex "direct"). Its row.
  relay     totex "relay" (alltoallv_relay.c, src/combining/relay.c): a block antipodal in an even ring
            of >= 4 nodes goes first to the neighbour r + sum s_i e_i, s_i by the partner factor's offset
            (whole blocks). Its row.
  relay2    relay with every antipodal block halved both ways round each antipodal ring.
  hotspread (b): the hot set H = the receivers whose column total exceeds 2 x the mean column (every rank's
            column total is carried on the data: O(n) figures). A block to a hot j is split evenly over
            j's 2D in-neighbours v (leg to v, then one hop v -> j); a leg to v that would pass through j
            takes a rotated dimension order (relay at the corner); a block to a non-hot receiver goes as
            relay does, but a path through a hot node as a relay's transit is rerouted round it by the first
            rotated dimension order whose corner path avoids hot nodes. Its row, H.
  west      (a): every rank computes the same estimate W^(i,j) = r_i c_j / T (row and column totals of
            every rank: O(n) figures carried on the data) and routes W^ by a deterministic fractional greedy
            (Q pieces per block, blocks largest first, round-robin over pieces; candidates: the direct
            route and every 2-leg route i -> k -> j; each piece on the candidate that leaves its busiest
            link least loaded, then the shorter); the fractions are applied to the real W. Counted on W.
  west@W^   the same routing counted on W^ (what the rule achieves on its own estimate).
  greedyW   the same greedy on the real W (a centralised heuristic no rank can compute: the reference).
  fw        (with --fw N) Frank-Wolfe over each block's direct route and its 2-leg routes through a relay on one
            of its shortest paths, N iterations: each iteration every rank takes, for each block of its row,
            the route of least cost (the softmax gradient of the links' loads, exp(40 load / max load)) and moves
            2 / (t + 3) of the block onto it. Its row, and the links' loads summed over every rank each
            iteration (an allreduce of 2 D n numbers: no n x n gather). The best busiest link seen.
"""
import math
import sys
import time

LINK = 1e10  # bytes per second


def mix64(x):
    M = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def zipf_rank(n):
    p = list(range(n))
    s = 1
    for j in range(n - 1, 0, -1):
        s = mix64(s)
        k = s % (j + 1)
        p[j], p[k] = p[k], p[j]
    return p


def demand_matrix(kind, m, n):
    zr = zipf_rank(n)
    hn = sum(1.0 / k for k in range(1, n + 1))
    W = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if kind == "zipf":
                v = math.floor(m * n / ((zr[j] + 1) * hn) + 0.5)
            elif kind == "hotspot":
                K = n // 8 if n // 8 > 0 else 1
                unit = m * n / (8.0 * K + (n - K))
                v = math.floor((8 * unit if (j % 8 == 0 and j // 8 < K) else unit) + 0.5)
            elif kind == "random":
                v = mix64(mix64(1) ^ ((i << 32) | j)) % (2 * m + 1)
            else:
                v = m
            W[i][j] = v
    return W


class Torus:
    def __init__(self, dims):
        self.dims = dims
        self.D = len(dims)
        self.n = 1
        self.stride = []
        for k in dims:
            self.stride.append(self.n)
            self.n *= k
        self._route = {}

    def coord(self, v, d):
        return v // self.stride[d] % self.dims[d]

    def move(self, v, d, sgn):
        k, c = self.dims[d], self.coord(v, d)
        return v + (((c + sgn) % k) - c) * self.stride[d]

    def link(self, v, d, sgn):
        return (v * self.D + d) * 2 + (1 if sgn > 0 else 0)

    def route(self, s, t):
        """SimGrid's TORUS route s -> t: the list of directed link ids"""
        key = (s, t)
        r = self._route.get(key)
        if r is not None:
            return r
        r = []
        cur = s
        for d in range(self.D):
            k = self.dims[d]
            sc, tc = self.coord(s, d), self.coord(t, d)
            if sc == tc:
                continue
            plus = (tc > sc and tc <= sc + k // 2) or (sc > k // 2 and (sc + k // 2) % k >= tc)
            sgn = 1 if plus else -1
            while self.coord(cur, d) != tc:
                r.append(self.link(cur, d, sgn))
                cur = self.move(cur, d, sgn)
        r = tuple(r)
        self._route[key] = r
        return r

    def path(self, nodes):
        """links of the legs nodes[0] -> nodes[1] -> ..."""
        out = []
        for a, b in zip(nodes, nodes[1:]):
            out.extend(self.route(a, b))
        return tuple(out)

    def path_nodes(self, nodes):
        """nodes passed through (not the ends of the whole path)"""
        seen = []
        for a, b in zip(nodes, nodes[1:]):
            for l in self.route(a, b):
                v = l // 2 // self.D
                seen.append(v)
        return seen[1:]  # drop the source itself

    def nlinks(self):
        return self.n * self.D * 2


def bounds(T, W):
    n, D = T.n, T.D
    row = [0.0] * n
    col = [0.0] * n
    hop = 0.0
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            w = W[i][j]
            row[i] += w
            col[j] += w
            dist = 0
            for d in range(D):
                x = abs(T.coord(i, d) - T.coord(j, d))
                dist += min(x, T.dims[d] - x)
            hop += w * dist
    inj = max(max(row[i], col[i]) / (2.0 * D * LINK) for i in range(n))
    cut = 0.0
    for d in range(D):
        k = T.dims[d]
        for off in range(k):
            ab = ba = 0.0
            for i in range(n):
                ai = (T.coord(i, d) - off) % k < k // 2
                for j in range(n):
                    aj = (T.coord(j, d) - off) % k < k // 2
                    if ai and not aj:
                        ab += W[i][j]
                    elif aj and not ai:
                        ba += W[i][j]
            links = (2.0 if k > 2 else 1.0) * (n // k) * LINK
            cut = max(cut, max(ab, ba) / links)
    return inj, cut, hop / (n * 2.0 * D * LINK)


def count(T, W, rule):
    """rule(i, j) -> list of (fraction, links); the busiest link's bytes"""
    load = [0.0] * T.nlinks()
    for i in range(T.n):
        for j in range(T.n):
            if i == j or W[i][j] == 0:
                continue
            for f, links in rule(i, j):
                for l in links:
                    load[l] += f * W[i][j]
    return max(load), load


# ---- rules -----------------------------------------------------------------------------------------


def rule_direct(T):
    return lambda i, j: [(1.0, T.route(i, j))]


def relay_partner(T):
    even = [k % 2 == 0 and k >= 4 for k in T.dims]
    partner = [None] * T.D
    for i in range(T.D):
        if not even[i]:
            continue
        for s in range(1, T.D):
            if even[(i + s) % T.D]:
                partner[i] = (i + s) % T.D
                break
        if partner[i] is None:
            for s in range(1, T.D):
                if T.dims[(i + s) % T.D] % 2 == 0:
                    partner[i] = (i + s) % T.D
                    break
    return partner


def rule_relay(T, halves=False, order=1):
    """order: 1 = partner factors counted in SimGrid's dimension order, -1 = reversed (totex's factor order
    is MPI's, the reverse of SimGrid's)"""
    dims_idx = list(range(T.D)) if order == 1 else list(range(T.D - 1, -1, -1))
    # partner in the chosen factor order
    even = [T.dims[d] % 2 == 0 and T.dims[d] >= 4 for d in dims_idx]
    partner = {}
    for a in range(T.D):
        if not even[a]:
            continue
        for s in range(1, T.D):
            if even[(a + s) % T.D]:
                partner[dims_idx[a]] = dims_idx[(a + s) % T.D]
                break

    def off(i, j, d):
        return (T.coord(j, d) - T.coord(i, d)) % T.dims[d]

    def rule(i, j):
        anti = [d for d in range(T.D) if d in partner and off(i, j, d) == T.dims[d] // 2]
        if not anti:
            return [(1.0, T.route(i, j))]
        if halves:
            outs = []
            combos = 1 << len(anti)
            for mask in range(combos):
                t = i
                for b, d in enumerate(anti):
                    t = T.move(t, d, 1 if mask >> b & 1 else -1)
                outs.append((1.0 / combos, T.path([i, t, j])))
            return outs
        t = i
        for d in anti:
            p = partner[d]
            sgn = -1 if off(i, j, p) < T.dims[p] // 2 else 1
            t = T.move(t, d, sgn)
        return [(1.0, T.path([i, t, j]))]

    return rule


def rotations(T, i, j):
    """the D rotated dimension orders as corner relays: order k moves dims k, k+1, .. in that order, realised
    by legs through corners (the leg from one corner to the next changes one dimension only)"""
    out = []
    for k in range(T.D):
        nodes = [i]
        cur = i
        for s in range(T.D):
            d = (k + s) % T.D
            nxt = cur + (T.coord(j, d) - T.coord(cur, d)) * T.stride[d]
            if nxt != cur:
                nodes.append(nxt)
                cur = nxt
        out.append(nodes)
    return out


def rule_hotspread(T, W):
    n = T.n
    col = [sum(W[i][j] for i in range(n) if i != j) for j in range(n)]
    mean = sum(col) / n
    hot = set(j for j in range(n) if col[j] > 2 * mean)
    base = rule_relay(T, halves=True)

    def avoid(i, t, forbid):
        """node lists i -> t whose transit avoids the nodes of forbid: the direct route, then rotations"""
        cands = [[i, t]] + rotations(T, i, t)
        for c in cands:
            if not (set(T.path_nodes(c)[:-1]) & forbid):
                return c
        return [i, t]

    def rule(i, j):
        if j in hot:
            outs = []
            ins = [T.move(j, d, s) for d in range(T.D) for s in (1, -1)]
            for v in ins:
                if v == i:
                    outs.append((1.0 / len(ins), T.route(i, j)))
                    continue
                leg = avoid(i, v, (hot | {j}))
                # v -> j: one hop, against the way v sits from j
                outs.append((1.0 / len(ins), T.path(leg) + T.route(v, j)))
            return outs
        outs = []
        for f, links in base(i, j):
            outs.append((f, links))
        # transit through a hot node: reroute the whole block round it
        trans = set(l // 2 // T.D for _, ls in outs for l in ls[1:])
        if trans & hot:
            leg = avoid(i, j, hot)
            return [(1.0, T.path(leg))]
        return outs

    return rule, hot


def greedy_routing(T, Wt, pieces, passes=0):
    """deterministic fractional greedy over {direct} U {i -> k -> j}, then @p passes of rip-up and reroute
    (every piece in the same order taken off and put back on its best candidate): returns
    {(i,j): [(fraction, links)]} and the busiest link's load it leaves (on Wt)"""
    n = T.n
    load = [0.0] * T.nlinks()
    cands = {}
    pairs = [(Wt[i][j], i, j) for i in range(n) for j in range(n) if i != j and Wt[i][j] > 0]
    pairs.sort(key=lambda x: (-x[0], x[1], x[2]))
    for _, i, j in pairs:
        cs = [T.route(i, j)]
        for k in range(n):
            if k != i and k != j:
                cs.append(T.path([i, k, j]))
        cands[(i, j)] = cs
    placed = {}  # (piece index, i, j) -> links

    def best_of(i, j, piece):
        best = None
        for c in cands[(i, j)]:
            mx = 0.0
            for l in c:
                if load[l] > mx:
                    mx = load[l]
            key = (mx + piece, len(c))
            if best is None or key < best[0]:
                best = (key, c)
        return best[1]

    for q in range(pieces):
        for w, i, j in pairs:
            piece = w / pieces
            c = best_of(i, j, piece)
            for l in c:
                load[l] += piece
            placed[(q, i, j)] = c
    for _ in range(passes):
        for q in range(pieces):
            for w, i, j in pairs:
                piece = w / pieces
                for l in placed[(q, i, j)]:
                    load[l] -= piece
                c = best_of(i, j, piece)
                for l in c:
                    load[l] += piece
                placed[(q, i, j)] = c
    assign = {}
    for (q, i, j), c in placed.items():
        a = assign.setdefault((i, j), {})
        a[c] = a.get(c, 0.0) + 1.0 / pieces
    routing = {k: [(f, c) for c, f in v.items()] for k, v in assign.items()}
    return routing, max(load)


def estimate(W, n):
    """W^ = r c^T / T from every rank's row and column totals, the self blocks included (exact for a demand
    of rank 1, as zipf's and hotspot's)"""
    row = [sum(W[i]) for i in range(n)]
    col = [sum(W[i][j] for i in range(n)) for j in range(n)]
    tot = sum(row)
    return [[(row[i] * col[j] / tot if i != j else 0.0) for j in range(n)] for i in range(n)]


def fw_over(T, W, cands, iters):
    """Frank-Wolfe over the candidate paths cands[(i, j)] (lists of link ids; the first is where each block starts),
    the softmax exp(40 (load - max) / max) of the links' loads as the cost, step 2 / (t + 3), fractions under 1e-4
    dropped: (the least busiest link's bytes over the iterations, the flows {(i, j): {path index: fraction}} there)"""
    flow = {key: {0: 1.0} for key in cands}
    best, best_flow = float("inf"), None
    for t in range(iters + 1):
        load = [0.0] * T.nlinks()
        for (i, j), fr in flow.items():
            for pi, f in fr.items():
                for l in cands[(i, j)][pi]:
                    load[l] += f * W[i][j]
        mx = max(load)
        if mx < best:
            best, best_flow = mx, {k: dict(v) for k, v in flow.items()}
        if t == iters or mx <= 0:
            break
        c = [math.exp(40.0 * (x - mx) / mx) for x in load]
        g = 2.0 / (t + 3)
        for key, ps in cands.items():
            b = min(range(len(ps)), key=lambda x: sum(c[l] for l in ps[x]))
            fr = flow[key]
            for x in list(fr):
                fr[x] *= 1 - g
                if fr[x] < 1e-4:
                    del fr[x]
            fr[b] = fr.get(b, 0.0) + g
    return best, best_flow


def fw_routing(T, W, iters):
    """the fw rule above: the busiest link's bytes, the best over the iterations"""
    cands = {}
    for i in range(T.n):
        for j in range(T.n):
            if i == j or W[i][j] == 0:
                continue
            ps, dist = [T.route(i, j)], len(T.route(i, j))
            for k in range(T.n):
                if k not in (i, j):
                    p = T.path([i, k, j])
                    if len(p) == dist:
                        ps.append(p)
            cands[(i, j)] = ps
    return fw_over(T, W, cands, iters)[0]


def main(argv):
    tori, kinds, mean, pieces, passes, fw = [], "uniform,zipf,hotspot,random", 65536, 4, 2, 0
    it = iter(argv)
    for a in it:
        if a == "--kinds":
            kinds = next(it)
        elif a == "--mean":
            mean = int(next(it))
        elif a == "--pieces":
            pieces = int(next(it))
        elif a == "--passes":
            passes = int(next(it))
        elif a == "--fw":
            fw = int(next(it))
        else:
            tori.append(a)
    tori = tori or ["4x4", "8x8", "4x4x4"]
    for k in kinds.split(","):
        if k not in ("uniform", "zipf", "hotspot", "random"):
            sys.stderr.write("alltoallv_linkload.py: demand kind '%s' is not uniform, zipf, hotspot or random\n" % k)
            sys.exit(2)
    for t in tori:
        if not all(x.isdigit() and int(x) >= 2 for x in t.split("x")):
            sys.stderr.write("alltoallv_linkload.py: torus '%s' is not sides of at least 2 joined by x\n" % t)
            sys.exit(2)
    us = lambda b: b / LINK * 1e6
    print("torus kind bound_us(inject/cut/hop) rule busiest_us x_bound")
    for t in tori:
        T = Torus([int(x) for x in t.split("x")])
        for kind in kinds.split(","):
            W = demand_matrix(kind, mean, T.n)
            b = bounds(T, W)
            bound = max(b)
            bs = "%.2f(%.2f/%.2f/%.2f)" % (bound * 1e6, b[0] * 1e6, b[1] * 1e6, b[2] * 1e6)
            rows = []
            rows.append(("direct", count(T, W, rule_direct(T))[0]))
            rows.append(("relay", count(T, W, rule_relay(T))[0]))
            rows.append(("relay-rev", count(T, W, rule_relay(T, order=-1))[0]))
            rows.append(("relay2", count(T, W, rule_relay(T, halves=True))[0]))
            hr, hot = rule_hotspread(T, W)
            rows.append(("hotspread|H|=%d" % len(hot), count(T, W, hr)[0]))
            t0 = time.process_time()
            Wh = estimate(W, T.n)
            routing, on_est = greedy_routing(T, Wh, pieces, passes)
            t1 = time.process_time()
            rows.append(("west(Q=%d,P=%d)" % (pieces, passes), count(T, W, lambda i, j: routing[(i, j)])[0]))
            rows.append(("west@W^", on_est))
            _, on_w = greedy_routing(T, W, pieces, passes)
            rows.append(("greedyW", on_w))
            if fw > 0:
                rows.append(("fw(%d)" % fw, fw_routing(T, W, fw)))
            print("%s %s %s west_cpu %.2f s (python)" % (t, kind, bs, t1 - t0))
            for name, v in rows:
                print("%s %s %s %s %.2f %.3f" % (t, kind, bs, name, us(v), v / LINK / bound))
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
